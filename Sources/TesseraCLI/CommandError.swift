/// A failure while a command runs, said in one line: what went wrong and what to do about it.
///
/// ArgumentParser prints it as `Error: …` and exits with status 1, without the usage text that belongs to
/// malformed arguments.
struct CommandError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
