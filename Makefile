# Sokoban solver: common tasks.  `make` alone lists them.
# No external crates are used, so none of these needs the network.

CARGO ?= cargo
RUSTC ?= rustc
MAP   ?= samples/kth-samples/00_sample.txt
DIST  := dist

.DEFAULT_GOAL := help
.PHONY: help build solve test submission bench signature clean

help:
	@echo "Targets:"
	@echo "  make build              cargo build --release"
	@echo "  make solve [MAP=file]   solve one map (default $(MAP)) with target/release/sokoban"
	@echo "  make test               cargo test --release: unit tests, integration tests and"
	@echo "                          the single-file check (tests/submission.rs)"
	@echo "  make submission         write $(DIST)/sokoban.rs (one file for the judge) and build it"
	@echo "                          with plain rustc -O --edition 2021"
	@echo "  make bench              run the benchmark (tools/bench.sh)"
	@echo "  make signature          print the deterministic node-count signature"
	@echo "  make clean              remove target/ and $(DIST)/"

build:
	$(CARGO) build --release

solve: build
	target/release/sokoban < $(MAP)

test:
	$(CARGO) test --release

submission:
	$(CARGO) build --release --bin bundle
	target/release/bundle src/main.rs $(DIST)/sokoban.rs
	$(RUSTC) -O --edition 2021 -o $(DIST)/sokoban $(DIST)/sokoban.rs
	@echo "submission: $(DIST)/sokoban.rs ($$(wc -c < $(DIST)/sokoban.rs | tr -d " ") bytes, $$(wc -l < $(DIST)/sokoban.rs | tr -d " ") lines); built $(DIST)/sokoban"

bench:
	bash tools/bench.sh

signature:
	$(CARGO) run --release --bin sokoban -- bench

clean:
	$(CARGO) clean
	rm -rf $(DIST)
