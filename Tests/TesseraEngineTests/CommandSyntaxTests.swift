import TesseraEngine
import TesseraTesting
import Testing

/// Transports read their platform's command syntax into the engine's commands; the engine reads none itself.
@Suite("Command syntax", .onBothPaths)
struct CommandSyntaxTests {
    @Test(
        "A prefix, a name (addressed to this bot or to none) and the rest as the argument; anything else is text",
        arguments: [
            ("/guess crane", CommandSyntax.Reading.command(ChatCommand(name: "guess", argument: "crane"))),
            ("  /GUESS@TesseraBot   crane  ", .command(ChatCommand(name: "guess", argument: "crane"))),
            ("/help@tesserabot", .command(ChatCommand(name: "help"))),
            ("/guess@OtherBot crane", .forAnotherBot),
            ("!leaderboard week", .command(ChatCommand(name: "leaderboard", argument: "week"))),
            ("crane", .text),
            ("/", .text),
            ("Wordle 1,234 3/6", .text),
            (
                "/settings timezone Europe/Madrid",
                .command(ChatCommand(name: "settings", argument: "timezone Europe/Madrid"))
            ),
        ])
    func reading(text: String, expected: CommandSyntax.Reading) {
        #expect(CommandSyntax(prefixes: ["/", "!"], botUsername: "TesseraBot").read(text) == expected)
    }

    @Test("Without a bot name, an addressed command is read as ours: the platform has no addressing")
    func withoutBotName() {
        #expect(CommandSyntax(prefixes: ["/"]).read("/help@anyone") == .command(ChatCommand(name: "help")))
        #expect(CommandSyntax(prefixes: ["!"]).read("/help") == .text, "only the platform's prefixes")
    }

    @Test("The engine takes the command the transport read, not the text: it never parses syntax itself")
    func engineUsesTheCommand() async throws {
        let bot = try EngineHarness()
        // A command the transport read from another platform's syntax is the same command.
        let message = ChatMessage(
            chat: ChatID(1), chatKind: .direct, sender: UserID(1), senderName: "Ann", text: "!help",
            command: ChatCommand(name: "help"))
        try await bot.apply([message])
        let replies = try await bot.store.pendingMessages(limit: 10, now: bot.now)
        #expect(replies.first?.message.html.hasPrefix("<b>Commands</b>") == true)
    }

    @Test("The engine's command mentions are written in a platform's prefix; nothing else is touched")
    func writing() {
        let matrix = CommandSyntax(prefixes: ["!", "/"], writing: "!")
        #expect(
            matrix.written("Send one word, or /help for the commands.") == "Send one word, or !help for the commands.")
        #expect(matrix.written("<code>/forgetme AB12</code> (/stats)") == "<code>!forgetme AB12</code> (!stats)")
        let untouched = "3/6 · X/6* · <b>Board</b> · https://t.me/bot?start=play · /unknown · and/or · a/help"
        #expect(matrix.written(untouched) == untouched)
        #expect(matrix.written("/share") == "!share")
        let telegram = CommandSyntax(prefixes: ["/"], botUsername: "TesseraBot")
        #expect(telegram.written("Send /help") == "Send /help")
    }

    @Test("Every command the engine names is one it answers")
    func everyCommandAnswered() async throws {
        let bot = try EngineHarness()
        for name in BotCommand.allCases.map(\.rawValue) {
            let replies = try await bot.send("/\(name)")
            #expect(!replies.isEmpty, "/\(name) gets an answer")
            #expect(!replies.contains { $0.html.hasPrefix("I don't know that command") }, "/\(name) is known")
        }
    }
}
