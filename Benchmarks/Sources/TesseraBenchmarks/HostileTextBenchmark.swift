import TesseraCore
import TesseraCoreTesting
import TesseraEngine
import TesseraTesting

/// The larger seeded run of the fuzz test (`HostileTextTests`): what the bot does with every message's text
/// before a game sees it (control characters, the command, a pasted result, escaping for an echo), over
/// many hostile messages, beside ordinary chat of the same count.
func hostileTextBenchmark(messages count: Int, seed: UInt64) {
    let syntax = CommandSyntax(prefixes: ["/"], botUsername: "TesseraBot")
    func read(_ text: String) -> Int {
        let message = ChatMessage(
            chat: ChatID(.telegram, "-1"), chatKind: .group, sender: UserID(.telegram, "1"), senderName: text,
            text: text)
        var size = message.text.utf8.count
        if case .command(let command) = syntax.read(message.text) { size += command.argument.count }
        if let share = SharedResult(parsing: message.text) { size += share.rows.count }
        return size + message.text.htmlEscaped.utf8.count
    }
    var generator = HostileText(random: SplitMix64(seed: seed))
    let hostile = (0..<count).map { _ in generator.next() }
    let ordinary = (0..<count).map { index in
        ["crane", "/guess slate", "Wordle 1,234 3/6\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩", "good morning everyone"][index % 4]
    }
    func run(_ texts: [String]) -> (total: Double, worst: Double, worstLength: Int, worstText: String, checksum: Int) {
        var worst = (0.0, 0)
        var worstText = ""
        var checksum = 0
        let total = nanoseconds(
            clock.measure {
                for text in texts {
                    var size = 0
                    let elapsed = nanoseconds(clock.measure { size = read(text) })
                    checksum &+= size
                    if elapsed > worst.0 {
                        worst = (elapsed, text.utf16.count)
                        worstText = text
                    }
                }
            })
        return (total, worst.0, worst.1, worstText, checksum)
    }
    let baseline = run(ordinary)
    let fuzzed = run(hostile)
    let longest = hostile.map(\.utf16.count).max() ?? 0
    print("\nReading hostile chat text (seed \(seed), \(count) messages, the longest \(longest) UTF-16 units)")
    print(
        "  hostile:  \(String(format: "%7.2f", fuzzed.total / 1e6)) ms in all, "
            + "\(String(format: "%6.2f", fuzzed.total / Double(count) / 1e3)) µs a message, worst "
            + "\(String(format: "%6.3f", fuzzed.worst / 1e6)) ms (\(fuzzed.worstLength) units)")
    print(
        "  ordinary (baseline): \(String(format: "%7.2f", baseline.total / 1e6)) ms in all, "
            + "\(String(format: "%6.2f", baseline.total / Double(count) / 1e3)) µs a message, worst "
            + "\(String(format: "%6.3f", baseline.worst / 1e6)) ms (checksums \(fuzzed.checksum), \(baseline.checksum))"
    )
    // Where the slowest message's time goes, read again step by step.
    let text = fuzzed.worstText
    let steps = [
        ("the message", nanoseconds(clock.measure { _ = read(text) })),
        (
            "control characters",
            nanoseconds(
                clock.measure {
                    _ = ChatMessage(
                        chat: ChatID(.telegram, "-1"), chatKind: .group, sender: UserID(.telegram, "1"),
                        senderName: text,
                        text: text)
                })
        ),
        ("command", nanoseconds(clock.measure { _ = syntax.read(text) })),
        ("pasted result", nanoseconds(clock.measure { _ = SharedResult(parsing: text) })),
        ("escaping", nanoseconds(clock.measure { _ = text.htmlEscaped })),
    ]
    print(
        "  the slowest, \(String(text.prefix(24)).debugDescription)…: "
            + steps.map { "\($0.0) \(String(format: "%.3f", $0.1 / 1e6)) ms" }.joined(separator: ", "))
}
