# Sokoban solver: common tasks.  `make` alone lists them.
# No external crates are used, so none of these needs the network.

CARGO ?= cargo
RUSTC ?= rustc
MAP   ?= samples/kth-samples/00_sample.txt
DIST  := dist

.DEFAULT_GOAL := help
.PHONY: help build solve test submission bench stress signature clean

help:
	@echo "Targets:"
	@echo "  make build              cargo build --release"
	@echo "  make solve [MAP=file]   solve one map (default $(MAP)) with target/release/sokoban"
	@echo "  make test               cargo test --release: unit tests, integration tests and"
	@echo "                          the single-file check (tests/submission.rs)"
	@echo "  make submission         write $(DIST)/sokoban.rs (the judge file: one file, tests,"
	@echo "                          comments and people-only code left out) and build it like"
	@echo "                          the judge: rustc -O --crate-type bin --edition=2021"
	@echo "  make bench              run the benchmark (tools/bench.sh)"
	@echo "  make stress             huge maps and maps at each size limit under 1 GiB and short"
	@echo "                          time limits (tools/stress.sh): exit codes, time, memory"
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
	$(RUSTC) -O --crate-type bin --edition=2021 -o $(DIST)/sokoban $(DIST)/sokoban.rs
	@size=$$(wc -c < $(DIST)/sokoban.rs | tr -d " "); \
	echo "submission: $(DIST)/sokoban.rs, $$size bytes of the judge's 128000 ($$((128000 - size)) to spare); built $(DIST)/sokoban"

bench:
	bash tools/bench.sh

stress:
	bash tools/stress.sh

signature:
	$(CARGO) run --release --bin sokoban -- bench

clean:
	$(CARGO) clean
	rm -rf $(DIST)
