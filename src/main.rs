//! Placeholder: the solver core is being written.
fn main() {
    eprintln!("not implemented yet");
    std::process::exit(1);
}
