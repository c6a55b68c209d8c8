public import Foundation
public import ServiceLifecycle
import Synchronization
public import TesseraEngine
import TesseraPictures

/// A chat in the terminal driving the real engine and store: type as a player, switch players, pretend to be
/// in a group. What a newcomer uses without a bot token.
///
/// It is also a service of the bot's group, which returns once standard input ends, so that the group shuts down
/// gracefully: every reply is printed before the chat ends.
public final class ConsoleTransport: ChatTransport, Service {
    /// The name its position and heartbeat are stored under.
    public static let transportName = "console"
    public let name = ConsoleTransport.transportName
    public let platform = Platform.console
    /// Buttons through `:press`; a terminal can neither change what it printed nor react to a line, has no member
    /// tags, and shows plain text, where nothing can be hidden. It prints as fast as it is asked: no rate limits, so every
    /// reply is printed before the chat ends, even for input piped in at once. Pictures are files it names, when
    /// it was given a folder for them.
    public let traits: PlatformTraits
    /// Where pictures are written, each as a PNG file whose path is printed with its caption.
    private let pictures: URL?

    private struct State {
        var player = "You"
        var group: String?
        var lines: AsyncStream<String>?
        /// How each chat is shown: a player's name, or `#group`.
        var labels: [ChatID: String] = [:]
        /// The buttons of the latest message with buttons in each chat, for `:press`.
        var buttons: [ChatID: [OutgoingMessage.Button]] = [:]
        var posts: Int64 = 0
    }

    private let state = Mutex(State())
    private let write: @Sendable (String) -> Void
    /// Finished when standard input ends.
    private let ended = AsyncStream<Never>.makeStream()

    /// - Parameters:
    ///   - write: where replies and notices go.
    ///   - pictures: the folder pictures are written to (made when the first is); nil: no pictures.
    public init(write: @escaping @Sendable (String) -> Void, pictures: URL? = nil) {
        self.write = write
        self.pictures = pictures
        traits = PlatformTraits(
            buttons: true, edits: false, reactions: false, spoilers: false, threads: false, memberTags: false,
            pictures: pictures != nil, rateLimits: .unlimited)
    }

    /// Returns when standard input has ended, or when the group shuts down.
    public func run() async {
        let ended = self.ended.stream
        await cancelWhenGracefulShutdown {
            for await _ in ended {}
        }
    }

    public static let help = """
        Console chat: type a word to guess, or a /command (/help lists them).
          :as NAME      talk as another player          :group NAME   pretend to be in a group chat
          :direct       back to your direct chat        :press N      press button N of the last message
          :help         this text
        Ctrl-D quits; everything is kept in the database.
        """

    public func receive(after position: String?) async throws -> ReceivedBatch {
        // One receive at a time, so each may iterate the shared stream in turn.
        for await line in inputLines() {
            if let message = message(from: line) {
                // Lines are counted, though a terminal never sends one again.
                return ReceivedBatch(
                    messages: [message], nextPosition: String((position.flatMap { Int($0) } ?? 0) &+ 1))
            }
        }
        ended.continuation.finish()
        // Standard input is over: wait here until the graceful shutdown cancels this call.
        try await Task.sleep(for: .seconds(365 * 86_400))
        throw CancellationError()
    }

    @discardableResult
    public func send(_ message: OutgoingMessage, key: String) async throws -> MessageID? {
        var message = message
        switch message.action {
        case .post, .react: break
        case .delete: message.html = "🧹 (deleted the message before)"
        case .answerQuery(_, let title):
            // What the player could post in the chat they pick.
            message.html = message.html.isEmpty ? title : "\(title):\n\(message.html)"
        case .openDirectChat(let person):
            // A player's direct chat in the terminal is named after them.
            message.chat = ChatID(.console, person.value)
            message.chatKind = .direct
        case .postPlayerData: throw OutgoingMessage.ungathered
        case .tagMember: return nil
        }
        let post = state.withLock { state in
            state.posts += 1
            return state.posts
        }
        var file: String?
        if let picture = message.picture, let pictures { file = try await save(picture, number: post, in: pictures) }
        show(message, picture: file)
        return MessageID(String(post))
    }

    /// Writes a picture as `tessera-result-12.png` (the post's number) in the folder; a folder that cannot be
    /// written is ``TransportError/pictureRefused(_:)``, and the text is shown alone.
    private func save(_ picture: Picture, number: Int64, in folder: URL) async throws -> String {
        let name = picture.fileName.replacingOccurrences(of: ".png", with: "-\(number).png")
        let file = folder.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(await picture.drawnInTurn().png).write(to: file, options: .atomic)
        } catch {
            throw TransportError.pictureRefused("could not write \(file.path): \(error.localizedDescription)")
        }
        return file.path
    }

    /// A terminal cannot change what it printed: the edited message is printed again.
    public func edit(_ posted: MessageID, toRead message: OutgoingMessage, key: String) async throws {
        show(message)
    }

    private func show(_ message: OutgoingMessage, picture: String? = nil) {
        let buttons = message.buttons.joined()
        let label = state.withLock { state in
            if !buttons.isEmpty { state.buttons[message.chat] = Array(buttons) }
            return state.labels[message.chat]
        }
        var text = picture.map { "🖼 \($0)\n" } ?? ""
        text += message.plainText
        if let document = message.document {
            text += "\n📎 \(document.fileName):\n" + String(decoding: document.contents, as: UTF8.self)
        }
        if !buttons.isEmpty {
            text +=
                "\n" + buttons.enumerated().map { "[\($0.offset + 1)] \($0.element.text)" }.joined(separator: "  ")
                + "  (:press N)"
        }
        write("[\(label ?? "chat \(message.chat)")] " + text.replacingOccurrences(of: "\n", with: "\n    ") + "\n")
    }

    /// Whoever types at the console runs the bot, so they administer every group in it.
    public func isAdministrator(_ user: UserID, in chat: ChatID) async throws -> Bool { true }

    /// The console shows what the bot would delete in a group where it may.
    public func mayDeleteMessages(in chat: ChatID) async throws -> Bool { true }

    /// Lines from standard input, read on a queue of their own: `readLine` blocks.
    private func inputLines() -> AsyncStream<String> {
        state.withLock { state in
            if let lines = state.lines { return lines }
            let (stream, continuation) = AsyncStream.makeStream(of: String.self)
            DispatchQueue(label: "tessera.console.stdin").async {
                while let line = readLine() { continuation.yield(line) }
                continuation.finish()
            }
            state.lines = stream
            return stream
        }
    }

    /// Carries out the terminal's own commands (`:as`, `:group`, `:direct`, `:help`), which the bot never sees;
    /// false for anything else.
    private func isConsoleCommand(_ word: String, argument: String) -> Bool {
        switch word {
        case ":as":
            guard !argument.isEmpty else {
                write("Usage: :as NAME\n")
                return true
            }
            state.withLock { $0.player = argument }
            write("Now talking as \(argument).\n")
        case ":group":
            guard !argument.isEmpty else {
                write("Usage: :group NAME\n")
                return true
            }
            state.withLock { $0.group = argument }
            write("Now in the group #\(argument).\n")
        case ":direct":
            state.withLock { $0.group = nil }
            write("Back in your direct chat.\n")
        case ":help":
            write(Self.help + "\n")
        default:
            return false
        }
        return true
    }

    public func message(from line: String) -> ChatMessage? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let argument = trimmed.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        if isConsoleCommand(trimmed.split(separator: " ").first.map(String.init) ?? "", argument: argument) {
            return nil
        }
        var (player, group) = state.withLock { ($0.player, $0.group) }
        // Players are their names, and their direct chats too; groups are `#name`.
        let user = UserID(.console, player)
        var chat = group.map { ChatID(.console, "#" + $0) } ?? ChatID(.console, player)
        state.withLock { $0.labels[chat] = group.map { "#\($0)" } ?? player }
        var text = line
        var button: String?
        var event: ChatEvent?
        if trimmed.hasPrefix(":press") {
            let buttons = state.withLock { $0.buttons[chat] } ?? []
            guard let number = Int(argument), number >= 1, number <= buttons.count else {
                write("Usage: :press N, for one of the \(buttons.count) buttons of the last message here\n")
                return nil
            }
            if let start = buttons[number - 1].directChatStart {
                // A link to the direct chat: go there and start it, as a chat app would.
                group = nil
                chat = ChatID(.console, player)
                state.withLock {
                    $0.group = nil
                    $0.labels[chat] = player
                }
                write("Back in your direct chat.\n")
                text = "/start \(start)"
            } else if let copied = buttons[number - 1].copyText {
                // Copying: the console shows what the clipboard would hold, and sends nothing.
                write("Copied:\n\(copied)\n")
                return nil
            } else if let query = buttons[number - 1].postQuery {
                // Posting through the bot in another chat: the console shows what would be offered.
                text = query
                event = .query(id: "console")
            } else {
                button = buttons[number - 1].data
                text = ""
            }
        }
        // The terminal's commands are Telegram's, without a bot's name: `/help`.
        var command: ChatCommand?
        if event == nil, case .command(let read) = CommandSyntax(prefixes: ["/"]).read(text) { command = read }
        return ChatMessage(
            chat: chat,
            chatKind: group == nil ? .direct : .group,
            sender: user,
            senderName: player,
            text: text,
            command: command,
            button: button,
            event: event
        )
    }

}
