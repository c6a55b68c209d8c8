import ArgumentParser
import Foundation
import Logging
import Synchronization
import TesseraConsole
import TesseraCore
import TesseraEngine
import TesseraRuntime
import TesseraSQLite
import TesseraTestSupport
import TesseraTesting
import Testing

@testable import TesseraCLI

@Suite("tessera run")
struct RunTests {
    @Test("Without a token it runs a console chat on the real engine and store, and keeps everything")
    func consoleChat() async throws {
        let directory = try TesseraProcess.temporaryDirectory()
        let database = directory.appendingPathComponent("tessera.sqlite").path
        let environment = ["TESSERA_SECRET": "console test 7b3e90d1c4a2f865", "TESSERA_DATABASE": database]
        let first = try await TesseraProcess.run(
            ["run", "--time-zone", "UTC"],
            // Piped in at once: a burst no chat platform's rate limits would let out, all answered before the end.
            input: "crane\n:as Bob\n/stats\n:group family\n/leaderboard\n/join\n/leaderboard week\n/settings\n"
                + "/settings topic here\n",
            environment: environment
        )
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("[#family] This chat has no topics"), "\(first.standardOutput)")
        let lines = first.standardOutput.split(separator: "\n")
        #expect(first.standardOutput.contains("[You] Tessera ") && lines.contains { $0.hasSuffix(" CRANE") })
        #expect(first.standardOutput.contains("[Bob] Statistics (English)"))
        #expect(first.standardOutput.contains("[#family] No results for puzzle"))
        // A second run continues from the database.
        let second = try await TesseraProcess.run(
            ["run", "--time-zone", "UTC"], input: "/board\n", environment: environment)
        #expect(second.standardOutput.contains("[You] Tessera ") && second.standardOutput.contains(" CRANE\n"))
    }

    @Test(
        "The terminal chat writes a finished game's result card and the chart as PNG files beside the database and prints their paths; pictures = off writes none"
    )
    func consolePictures() async throws {
        for pictures in ["on", "off"] {
            let directory = try TesseraProcess.temporaryDirectory()
            let environment = [
                "TESSERA_SECRET": "console test 7b3e90d1c4a2f865", "TESSERA_PICTURES": pictures,
                "TESSERA_DATABASE": directory.appendingPathComponent("tessera.sqlite").path,
            ]
            // Six guesses end the game whatever the word.
            let run = try await TesseraProcess.run(
                ["run", "--time-zone", "UTC"],
                input: ["crane", "slate", "audio", "point", "might", "bumpy", "/stats"].joined(separator: "\n") + "\n",
                environment: environment)
            #expect(run.status == 0, "\(run.standardError)")
            let folder = directory.appendingPathComponent("pictures").path
            let paths = run.standardOutput.split(separator: "\n").compactMap { line in
                line.range(of: "🖼 ").map { String(line[$0.upperBound...]) }
            }
            if pictures == "off" {
                #expect(paths.isEmpty && !FileManager.default.fileExists(atPath: folder))
                continue
            }
            #expect(
                paths.map { URL(fileURLWithPath: $0).lastPathComponent.split(separator: "-")[1] } == [
                    "result", "statistics",
                ])
            for path in paths {
                #expect(path.hasPrefix(folder))
                let png = try Data(contentsOf: URL(fileURLWithPath: path))
                #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            }
        }
    }

    @Test("The console shows documents and buttons, and :press presses one")
    func consoleButtons() async throws {
        let written = Mutex<[String]>([])
        let console = ConsoleTransport(write: { text in written.withLock { $0.append(text) } })
        #expect(console.message(from: ":press 1") == nil)
        #expect(written.withLock { $0.last } == "Usage: :press N, for one of the 0 buttons of the last message here\n")
        let you = ChatID(.console, "You")
        try await console.send(
            OutgoingMessage(
                chat: you, chatKind: .direct, html: "Sure?",
                buttons: [[.init(text: "Yes", data: "x:yes")], [.init(text: "No", data: "x:no")]]), key: "1")
        try await console.send(
            OutgoingMessage(
                chat: you, chatKind: .direct, html: "Your <b>data</b>",
                document: .init(fileName: "d.json", contents: Array("{}".utf8))), key: "2")
        #expect(
            written.withLock { $0 }.suffix(2) == [
                "[You] Sure?\n    [1] Yes  [2] No  (:press N)\n", "[You] Your data\n    📎 d.json:\n    {}\n",
            ])
        let press = try #require(console.message(from: ":press 2"))
        #expect(press.button == "x:no" && press.text.isEmpty && press.chat == you)
        #expect(console.message(from: ":press 3") == nil)
        #expect(console.message(from: "crane")?.button == nil)
    }

    #if PostgreSQL
        static let withPostgres = true
    #else
        static let withPostgres = false
    #endif

    /// A server that is not there is named at once, with what the network said.
    static let postgresCases: [([String], [String: String], String)] = [
        (
            ["run", "--database", "postgres://bot@127.0.0.1:1/tessera?sslmode=disable"], [:],
            "Error: Cannot use the PostgreSQL database postgres://bot@127.0.0.1:1/tessera: "
        ),
        (
            ["run", "--database", "postgres://bot@127.0.0.1/tessera?sslmode=sometimes"], [:],
            "Error: sslmode=sometimes is not one Tessera knows"
        ),
    ]

    @Test("Bad settings and a damaged database get one line and a non-zero exit")
    func badSettings() async throws {
        let directory = try TesseraProcess.temporaryDirectory()
        let damaged = directory.appendingPathComponent("damaged.sqlite")
        try Data(repeating: 7, count: 8192).write(to: damaged)
        // An unfilled systemd credential: a token file with nothing in it.
        let emptyToken = directory.appendingPathComponent("telegram-token")
        try Data(" \n".utf8).write(to: emptyToken)
        let cases: [([String], [String: String], String)] =
            [
                (
                    ["run"], ["TESSERA_SECRET": "correct horse battery"],
                    "Error: The schedule secret in TESSERA_SECRET (or secret in the configuration file) is too weak: "
                        + "it carries at most about 123 bits"
                ),
                (["play"], ["TESSERA_SECRET": "hunter2"], "Error: The schedule secret in TESSERA_SECRET is too weak"),
                (
                    ["run"], ["TESSERA_TELEGRAM_TOKEN_FILE": emptyToken.path],
                    "Error: The Telegram token file \(emptyToken.path) is empty: write the Telegram token into it"
                ),
                (
                    ["run", "--rollover-hour", "30"], [:],
                    "Error: default.rollover.hour must be a whole hour from 0 to 23, not '30'."
                ),
                (["run", "--language", "fr"], [:], "Error: default.language 'fr' is not one of en, es."),
                (
                    ["run"], ["TESSERA_TELEGRAM_API_URL": "ftp://example"],
                    "Error: telegram.api.url 'ftp://example' is not an http(s) URL"
                ),
                (
                    ["run", "--config", "/nonexistent.json"], [:],
                    "Error: The configuration file /nonexistent.json does not exist."
                ),
                (["run", "--database", damaged.path], [:], "Error: Cannot use the database at \(damaged.path)"),
                (
                    ["run"], ["TESSERA_METRICS_LISTEN": "9464"],
                    "Error: metrics.listen '9464' is not HOST:PORT, such as 127.0.0.1:9464 or [::1]:9464"
                ),
                (
                    ["run"], ["TESSERA_METRICS_LISTEN": "127.0.0.1:99999"],
                    "Error: metrics.listen '127.0.0.1:99999' is not HOST:PORT"
                ),
                (
                    ["run"], ["TESSERA_TELEGRAM_TOKEN": "1:x", "TESSERA_METRICS_STALE_AFTER": "60"],
                    "Error: metrics.stale.after must be a whole number of seconds over 65"
                ),
                (
                    ["run"], ["TESSERA_PRACTICE_GAMES_PER_DAY": "-1"],
                    "Error: practice.games.per.day must be a whole number from 0 (no practice games) to 10000, not '-1'."
                ),
                (
                    ["run"], ["TESSERA_PICTURES": "sometimes"],
                    "Error: pictures must be on or off, not 'sometimes'."
                ),
                (
                    ["run"], ["TESSERA_TELEGRAM_POLL_SECONDS": "90"],
                    "Error: telegram.poll.seconds must be a whole number of seconds from 1 to 50, not '90'."
                ),
                (
                    ["run", "--database", "postgres://bot:hunter2@127.0.0.1:1/tessera"], [:],
                    Self.withPostgres
                        ? "Error: TESSERA_DATABASE has a password in it"
                        : "Error: TESSERA_DATABASE is a PostgreSQL URL, but this tessera was built without PostgreSQL."
                ),
            ] + (Self.withPostgres ? Self.postgresCases : [])
        for (arguments, environment, message) in cases {
            let output = try await TesseraProcess.run(
                arguments,
                environment: environment.merging([
                    "TESSERA_DATABASE": directory.appendingPathComponent("ok.sqlite").path
                ]) { a, _ in a }
            )
            #expect(output.status != 0)
            #expect(output.standardError.hasPrefix(message), "\(arguments): \(output.standardError)")
        }
    }

    @Test("Settings layer: command line over environment over file over defaults")
    func layering() async throws {
        let file = try TesseraProcess.temporaryDirectory().appendingPathComponent("tessera.json")
        try Data(
            #"{"database": "/from/file.sqlite", "default": {"time": {"zone": "Europe/Madrid"}, "language": "es"}, "game": {"name": "Palabro"}}"#
                .utf8
        ).write(to: file)
        let environment = [
            "TESSERA_DEFAULT_TIME_ZONE": "Asia/Tokyo", "TESSERA_TELEGRAM_TOKEN": "123:abc", "HOME": "/home/x",
        ]
        let settings = try await RunSettings.load(
            commandLine: ["default.language": "en"],
            configFile: file.path,
            environment: environment
        )
        #expect(settings.defaultLanguage == .english, "the command line wins")
        #expect(settings.defaultTimeZone == "Asia/Tokyo", "the environment beats the file")
        #expect(settings.databasePath == "/from/file.sqlite", "the file beats the default")
        #expect(settings.gameName == "Palabro")
        #expect(settings.telegramToken == "123:abc")
        #expect(settings.telegramAPIURL == RunSettings.defaultTelegramAPIURL)
        #expect(settings.defaultRolloverHour == 0)

        let defaults = try await RunSettings.load(commandLine: [:], configFile: nil, environment: ["HOME": "/home/x"])
        #expect(defaults.databasePath == "/home/x/.local/state/tessera/tessera.sqlite")
        #expect(defaults.telegramToken == nil)
        let systemd = try await RunSettings.load(
            commandLine: [:], configFile: nil, environment: ["STATE_DIRECTORY": "/var/lib/tessera"])
        #expect(systemd.databasePath == "/var/lib/tessera/tessera.sqlite")
    }

    @Test("tessera analyse and solve play with the answer edition in force on the day, unless --edition says otherwise")
    func editionInForce() throws {
        let list = Language.english.wordList
        try #require(list.answerEditions.count == 2 && list.answerEditions[1].firstPuzzle == PuzzleNumber(336))
        let options = try SolverOptions.parse([])
        // 2026-11-27 is puzzle 331: the first edition is in force; from 2026-12-02 (puzzle 336) the second.
        #expect(options.editionIndex(of: list, at: Date(timeIntervalSince1970: 1_795_780_800)) == 0)
        #expect(options.editionIndex(of: list, at: Date(timeIntervalSince1970: 1_796_256_000)) == 1)
        #expect(
            try SolverOptions.parse(["--edition", "2"]).editionIndex(of: list, at: Date(timeIntervalSince1970: 0)) == 1)
    }

    @Test("A winning turn in tessera analyse shows no best guess: there is nothing better than the word")
    func winningTurnHasNoBest() async throws {
        let output = try await TesseraProcess.run(["analyse", "cigar", "salet", "cigar"])
        #expect(output.status == 0, "\(output.standardError)")
        let turns = output.standardOutput.split(separator: "\n").filter { $0.hasPrefix("1. ") || $0.hasPrefix("2. ") }
        #expect(turns.count == 2)
        #expect(turns.first?.contains("; best ") == true, "a guess that did not win is compared")
        #expect(turns.last?.contains("🟩🟩🟩🟩🟩") == true && turns.last?.contains("best") == false, "\(turns)")
        // At most 12 words left are named (the first edition's: CIRCA left the lists later).
        let named = try await TesseraProcess.run(["analyse", "--edition", "1", "cigar", "salet", "crony", "cigar"])
        #expect(named.standardOutput.contains("2. CRONY 🟩🟨⬛⬛⬛  108 → 4 words left (CHAIR, CHARM, CIGAR, CIRCA);"))
        // Bounds that round to one figure print as that figure.
        let interval = AnalysisReport.Interval(atLeast: 0.201, atMost: 0.204)
        #expect(AnalysisReport.range(interval, signed: true) == "+0.20")
        #expect(
            AnalysisReport.range(AnalysisReport.Interval(atLeast: 0.1, atMost: 0.3), signed: true) == "+0.10 to +0.30")
    }

    @Test("backup, restore and status find the service's database as the unit does, and refuse to guess between two")
    func operatorCommandsFindTheServicesDatabase() async throws {
        let root = try TesseraProcess.temporaryDirectory()
        let service = DatabaseLocation.Service(
            configuration: root.appendingPathComponent("etc/tessera/tessera.json").path,
            stateDirectory: root.appendingPathComponent("var/lib/tessera").path)
        let home = root.appendingPathComponent("root").path
        let shell = ["HOME": home]
        let none = try DatabaseLocation.parse([])
        // No service installed: as tessera run from this shell.
        let alone = try await none.settings(environment: shell, service: service)
        #expect(alone.settings.databasePath == home + "/.local/state/tessera/tessera.sqlite" && alone.note == nil)
        // Installed, with the example configuration (no database key): the unit's state directory.
        try FileManager.default.createDirectory(
            atPath: (service.configuration as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(#"{"game": {"name": "Tessera"}}"#.utf8).write(to: URL(fileURLWithPath: service.configuration))
        let found = try await none.settings(environment: shell, service: service)
        #expect(found.settings.databasePath == service.stateDirectory + "/tessera.sqlite")
        #expect(found.note?.hasPrefix("The service's database, \(service.stateDirectory)/tessera.sqlite") == true)
        // This shell has a database of its own too: two could be meant, so nothing is guessed.
        try FileManager.default.createDirectory(
            atPath: home + "/.local/state/tessera", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: home + "/.local/state/tessera/tessera.sqlite", contents: Data()))
        await #expect(throws: CommandError.self) { try await none.settings(environment: shell, service: service) }
        do {
            _ = try await none.settings(environment: shell, service: service)
        } catch let error as CommandError {
            #expect(error.description.contains("Two databases could be meant"))
            #expect(error.description.contains("--database \(service.stateDirectory)/tessera.sqlite for the service's"))
        }
        // Named, nothing is guessed either way: --database, --config, or the service's own environment.
        let named = try await DatabaseLocation.parse(["--database", "/tmp/x.sqlite"]).settings(
            environment: shell, service: service)
        #expect(named.settings.databasePath == "/tmp/x.sqlite" && named.note == nil)
        let configured = try await DatabaseLocation.parse(["--config", service.configuration]).settings(
            environment: shell, service: service)
        #expect(configured.settings.databasePath == home + "/.local/state/tessera/tessera.sqlite")
        let inside = try await none.settings(
            environment: ["STATE_DIRECTORY": service.stateDirectory, "HOME": home], service: service)
        #expect(inside.settings.databasePath == service.stateDirectory + "/tessera.sqlite")
    }

    @Test(
        "A setting of the wrong JSON type is refused, naming the key, never passed over",
        arguments: [
            (#"{"metrics": {"listen": 9464}}"#, "metrics.listen is a number"),
            (#"{"telegram": {"rate": {"limits": false}}}"#, #"telegram.rate.limits is false, which"#),
            (#"{"practice": {"games": {"per": {"day": true}}}}"#, "practice.games.per.day is true"),
            (#"{"secret": 12345678901234567890}"#, "secret is a number"),
            (#"{"database": ["a.sqlite"]}"#, "database is a list"),
            (#"{"default": {"time": {"zone": {"name": "UTC"}}}}"#, "default.time.zone is an object"),
            (#"{"default": {"time": {"zone": "UTC"}}, "unknown": {"key": 1}}"#, ""),
        ])
    func wrongTypesRefused(_ json: String, _ said: String) async throws {
        let file = try TesseraProcess.temporaryDirectory().appendingPathComponent("tessera.json")
        try Data(json.utf8).write(to: file)
        do {
            _ = try await RunSettings.load(
                commandLine: [:], configFile: file.path, environment: ["TESSERA_TELEGRAM_TOKEN": "123:abc"])
            #expect(said.isEmpty, "accepted: \(json)")
        } catch let error as CommandError {
            #expect(!said.isEmpty && "\(error)".contains(said), "\(error)")
            #expect("\(error)".contains("which Tessera would pass over: give "), "\(error)")
        }
    }

    @Test("Extra guesses come from guesses.extra.file.LANGUAGE; a line that is not a word is refused, naming it")
    func extraGuessesFile() async throws {
        let folder = try TesseraProcess.temporaryDirectory()
        let good = folder.appendingPathComponent("es.txt")
        try Data("# in-jokes\ntxoko\n".utf8).write(to: good)
        let settings = try await RunSettings.load(
            commandLine: [:], configFile: nil, environment: ["TESSERA_GUESSES_EXTRA_FILE_ES": good.path])
        #expect(settings.extraGuesses[.spanish]?.map { Language.spanish.wordList.display($0) } == ["TXOKO"])
        #expect(settings.extraGuesses[.english] == nil)
        let bad = folder.appendingPathComponent("en.txt")
        try Data("hello\nhttps://x\n".utf8).write(to: bad)
        do {
            _ = try await RunSettings.load(
                commandLine: [:], configFile: nil, environment: ["TESSERA_GUESSES_EXTRA_FILE_EN": bad.path])
            Issue.record("a file with a line that is not a word was accepted")
        } catch let error as CommandError {
            #expect("\(error)".contains("\(bad.path), line 2: 'https://x' is not a word of 5 letters"), "\(error)")
        }
        await #expect(throws: CommandError.self) {
            _ = try await RunSettings.load(
                commandLine: [:], configFile: nil, environment: ["TESSERA_GUESSES_EXTRA_FILE_EN": folder.path + "/none"]
            )
        }
    }

    @Test("The analysis budget comes from analysis.steps and analysis.first.guess.steps; a too small one is refused")
    func analysisBudget() async throws {
        let defaults = try await RunSettings.load(commandLine: [:], configFile: nil, environment: [:])
        #expect(defaults.analysisBudget == .standard)
        let set = try await RunSettings.load(
            commandLine: [:], configFile: nil,
            environment: ["TESSERA_ANALYSIS_STEPS": "2000000", "TESSERA_ANALYSIS_FIRST_GUESS_STEPS": "5000000"])
        #expect(set.analysisBudget.steps == 2_000_000 && set.analysisBudget.firstGuessSteps == 5_000_000)
        for (key, value) in [
            ("TESSERA_ANALYSIS_STEPS", "1000"), ("TESSERA_ANALYSIS_STEPS", "lots"),
            ("TESSERA_ANALYSIS_FIRST_GUESS_STEPS", "5"),
        ] {
            await #expect(throws: CommandError.self, "\(key)=\(value)") {
                _ = try await RunSettings.load(commandLine: [:], configFile: nil, environment: [key: value])
            }
        }
    }

    @Test("Numbers in the file count whether written as JSON numbers or as text; a wrong one is refused")
    func numbersInTheFile() async throws {
        let file = try TesseraProcess.temporaryDirectory().appendingPathComponent("tessera.json")
        func load(_ json: String) async throws -> RunSettings {
            try Data(json.utf8).write(to: file)
            return try await RunSettings.load(
                commandLine: [:], configFile: file.path, environment: ["TESSERA_TELEGRAM_TOKEN": "123:abc"])
        }
        let numbers = try await load(
            #"{"default": {"rollover": {"hour": 6}}, "telegram": {"poll": {"seconds": 20}}, "metrics": {"stale": {"after": 90}}}"#
        )
        #expect(numbers.defaultRolloverHour == 6)
        #expect(numbers.telegramPollSeconds == 20)
        #expect(numbers.staleAfter == 90)
        let text = try await load(#"{"default": {"rollover": {"hour": "7"}}}"#)
        #expect(text.defaultRolloverHour == 7)
        for (json, said) in [
            (
                #"{"default": {"rollover": {"hour": 30}}}"#,
                "default.rollover.hour must be a whole hour from 0 to 23, not '30'"
            ),
            (
                #"{"metrics": {"stale": {"after": 30}}}"#,
                "metrics.stale.after must be a whole number of seconds over 65"
            ),
            (#"{"telegram": {"poll": {"seconds": 2.5}}}"#, "telegram.poll.seconds must be a whole number of seconds"),
            (#"{"analysis": {"steps": 5}}"#, "analysis.steps must be a whole number of steps, at least 1000000"),
            (
                #"{"analysis": {"steps": 2000000, "first": {"guess": {"steps": 1000000}}}}"#,
                "analysis.first.guess.steps must be a whole number of steps, at least analysis.steps (2000000), not '1000000'"
            ),
        ] {
            await #expect {
                try await load(json)
            } throws: { error in
                "\(error)".contains(said)
            }
        }
    }

    @Test("The token can come from a file, so it stays out of the environment and out of git")
    func tokenFile() async throws {
        let file = try TesseraProcess.temporaryDirectory().appendingPathComponent("token")
        try Data("  42:from-file\n".utf8).write(to: file)
        let settings = try await RunSettings.load(
            commandLine: [:],
            configFile: nil,
            environment: ["TESSERA_TELEGRAM_TOKEN_FILE": file.path]
        )
        #expect(settings.telegramToken == "42:from-file")
    }

    @Test("Logged text from outside stays on one line: control characters are escaped")
    func escapedLogLines() {
        let recorder = LogRecorder()
        let logger = Logger(label: "test") { _ in EscapingLogHandler(base: recorder.handler()) }
        logger.warning(
            "Skipped \("a\nFAKE: forged")",
            metadata: ["user.name": "Ann\u{0}ie", "data": .array(["x\ry"]), "plain": "café 🟩"])
        let line = recorder.lines.first
        #expect(line?.message == "Skipped a\\nFAKE: forged")
        let metadata = line?.metadata ?? ""
        #expect(metadata.contains("user.name=Ann\\u{0}ie") && metadata.contains("data="), "\(metadata)")
        #expect(metadata.contains("plain=café 🟩"))
        #expect(!metadata.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    @Test(
        "Line and paragraph separators and direction controls from outside are escaped in both log formats",
        arguments: ["\u{2028}", "\u{2029}", "\u{202E}", "\u{2066}", "\u{85}"])
    func separatorsEscaped(_ character: String) throws {
        let recorder = LogRecorder()
        let text = Logger(label: "test") { _ in EscapingLogHandler(base: recorder.handler()) }
        text.warning("name \("Ann\(character)evil")", metadata: ["user.name": "\("Bo\(character)b")"])
        let line = try #require(recorder.lines.first)
        for written in [line.message, line.metadata] {
            #expect(!written.unicodeScalars.contains { EscapingLogHandler.mustBeEscaped($0) }, "\(written)")
            #expect(written.contains("\\u{"), "\(written)")
        }
        let lines = Mutex<[Data]>([])
        let json = Logger(label: "tessera") { _ in
            JSONLogHandler(label: "tessera") { line in lines.withLock { $0.append(line) } }
        }
        json.warning("name \("Ann\(character)evil")", metadata: ["user.name": "\("Bo\(character)b")"])
        let written = try #require(lines.withLock { $0.first })
        let raw = String(decoding: written, as: UTF8.self)
        #expect(!raw.unicodeScalars.contains { EscapingLogHandler.mustBeEscaped($0) && $0 != "\n" }, "\(raw)")
        // Still JSON, and it reads back to what was logged.
        let object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        #expect(object["message"] as? String == "name Ann\(character)evil")
        #expect((object["metadata"] as? [String: Any])?["user.name"] as? String == "Bo\(character)b")
    }

    @Test("A JSON log line is one object: time, level, label, message and metadata; outside text stays in it")
    func jsonLogLines() throws {
        let lines = Mutex<[Data]>([])
        var handler = JSONLogHandler(label: "tessera") { line in lines.withLock { $0.append(line) } }
        handler.logLevel = .debug
        handler[metadataKey: "platform"] = "telegram"
        let logger = Logger(label: "tessera") { _ in handler }
        logger.warning(
            "Skipped \("a\nFAKE: forged")",
            metadata: ["user.name": "Ann\u{0}ie", "data": .array(["x\ry"]), "nested": ["plain": "café 🟩"]])
        logger.trace("below the level")
        let written = lines.withLock { $0 }
        try #require(written.count == 1)
        let text = String(decoding: written[0], as: UTF8.self)
        #expect(text.hasSuffix("}\n") && text.dropLast().allSatisfy { $0 != "\n" }, "one line: \(text)")
        let object = try #require(try JSONSerialization.jsonObject(with: written[0]) as? [String: Any])
        #expect(object["level"] as? String == "warning" && object["label"] as? String == "tessera")
        #expect(object["message"] as? String == "Skipped a\nFAKE: forged", "the text itself, escaped by JSON")
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata["platform"] as? String == "telegram" && metadata["user.name"] as? String == "Ann\u{0}ie")
        #expect(metadata["data"] as? [String] == ["x\ry"])
        #expect((metadata["nested"] as? [String: String])?["plain"] == "café 🟩")
        let time = try #require(object["time"] as? String)
        #expect(try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(time) <= Date())
    }

    @Test(
        "tessera status reads the heartbeat: healthy, just started, stopped, or running without polling",
        arguments: [
            (-10.0, -5.0, -5.0 as Double?, 0 as Int32, "Healthy: tessera run (telegram)"),
            (-5, -5, nil, 0, "Starting: tessera run (telegram)"),
            (-3_600, -3_600, -3_600, 1, "Error: Not running: no process holds the database. tessera run (telegram)"),
            (-3_600, -5, -3_600, 1, "Error: Stalled: tessera run (telegram)"),
            (-3_600, -5, nil, 1, "Error: Stalled: tessera run (telegram)"),
        ]
    )
    func status(started: Double, written: Double, poll: Double?, expectedStatus: Int32, expected: String)
        async throws
    {
        let path = try TesseraProcess.temporaryDirectory().appendingPathComponent("t.sqlite").path
        let now = Date()
        let heartbeat = Heartbeat(
            transport: "telegram", started: now + started, written: now + written, lastPoll: poll.map { now + $0 },
            lastSend: nil)
        try await SQLiteGameStore(path: path, logger: Logger(label: "test"))
            .setSetting(Heartbeat.settingKey(for: "telegram"), heartbeat.encoded())
        // A running bot holds its database's lock; one whose heartbeat is an hour old has gone.
        let lock = written > -60 ? try DatabaseLock(databasePath: path) : nil
        defer { withExtendedLifetime(lock) {} }
        let output = try await TesseraProcess.run(["status", "--database", path])
        #expect(output.status == expectedStatus)
        #expect((output.standardOutput + output.standardError).hasPrefix(expected), "\(output)")
        if expected.hasPrefix("Error: Stalled") {
            #expect(output.standardError.contains("Running but not receiving"), "as /healthz says it: \(output)")
        }
    }

    @Test("tessera status reports every platform, and one that stopped receiving makes the whole unhealthy")
    func statusOfTwoPlatforms() async throws {
        let path = try TesseraProcess.temporaryDirectory().appendingPathComponent("t.sqlite").path
        let store = try SQLiteGameStore(path: path, logger: Logger(label: "test"))
        let now = Date()
        func heartbeat(_ transport: String, lastPoll: Double) throws -> String {
            try Heartbeat(
                transport: transport, started: now - 3_600, written: now - 5, lastPoll: now + lastPoll, lastSend: nil
            ).encoded()
        }
        try await store.setSetting(Heartbeat.settingKey(for: "telegram"), heartbeat("telegram", lastPoll: -5))
        try await store.setSetting(Heartbeat.settingKey(for: "matrix"), heartbeat("matrix", lastPoll: -10))
        // The bot holds its database's lock while it runs.
        let lock = try DatabaseLock(databasePath: path)
        defer { withExtendedLifetime(lock) {} }
        let healthy = try await TesseraProcess.run(["status", "--database", path])
        #expect(healthy.status == 0)
        #expect(healthy.standardOutput.contains("(telegram)") && healthy.standardOutput.contains("(matrix)"))
        try await store.setSetting(Heartbeat.settingKey(for: "matrix"), heartbeat("matrix", lastPoll: -3_600))
        let stalled = try await TesseraProcess.run(["status", "--database", path])
        #expect(stalled.status == 1)
        #expect(
            stalled.standardError.hasPrefix("Error: Stalled: tessera run (matrix)")
                && stalled.standardError.contains("Running but not receiving"))
    }

    #if PostgreSQL
        @Test(
            "tessera status on PostgreSQL only reads: an unused database stays unused, a newer schema is refused",
            .disabled(if: PostgreSQLServer.isSkipped, "TESSERA_SKIP_POSTGRES=1"))
        func statusOnPostgresDoesNotMigrate() async throws {
            let database = try await PostgreSQLServer.shared.makeDatabase()
            let status = ["status", "--database", database.url]
            let environment = ["PGPASSWORD": database.password]
            let shown = database.url.replacingOccurrences(of: "?sslmode=disable", with: "")
            // Twice: had the first made the tables, the second would find them and look for a heartbeat.
            for _ in 1...2 {
                let unused = try await TesseraProcess.run(status, environment: environment)
                #expect(unused.status != 0)
                #expect(
                    unused.standardError.hasPrefix("Error: The database \(shown) has no Tessera tables yet"),
                    "\(unused.standardError)")
            }
            try await PostgreSQLServer.shared.administer(
                """
                CREATE TABLE tessera_migration (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL);
                INSERT INTO tessera_migration VALUES ('v99: from the future', now());
                ALTER TABLE tessera_migration OWNER TO \(database.name);
                """, in: database.name)
            let newer = try await TesseraProcess.run(status, environment: environment)
            #expect(newer.status != 0)
            #expect(newer.standardError.contains("written by a newer Tessera"), "\(newer.standardError)")
        }
    #endif

    @Test("tessera status tells a bot that ended, one starting and one stopped apart, each with what to do")
    func statusOfEachState() async throws {
        let path = try TesseraProcess.temporaryDirectory().appendingPathComponent("t.sqlite").path
        let store = try SQLiteGameStore(path: path, logger: Logger(label: "test"))
        let now = Date()
        func beat(started: Double, written: Double, lastPoll: Double?, launcher: Heartbeat.Launcher? = .systemd)
            async throws
        {
            let heartbeat = Heartbeat(
                transport: "telegram", started: now + started, written: now + written,
                lastPoll: lastPoll.map { now + $0 }, lastSend: nil, launcher: launcher)
            try await store.setSetting(Heartbeat.settingKey(for: "telegram"), try heartbeat.encoded())
        }
        // Ended a moment ago: its heartbeat is recent, but no process holds the database.
        try await beat(started: -600, written: -5, lastPoll: -5)
        let ended = try await TesseraProcess.run(["status", "--database", path])
        #expect(ended.status == 1)
        #expect(ended.standardError.hasPrefix("Error: Not running: no process holds the database."), "\(ended)")
        #expect(ended.standardError.contains("systemctl start tessera"))
        // What to do follows how the bot was started: the terminal chat is started again with scripts/run.
        try await beat(started: -600, written: -5, lastPoll: -5, launcher: .terminal)
        let terminal = try await TesseraProcess.run(["status", "--database", path])
        #expect(terminal.standardError.contains("start it again with scripts/run"), "\(terminal.standardError)")
        #expect(!terminal.standardError.contains("systemctl"), "\(terminal.standardError)")
        try await beat(started: -600, written: -5, lastPoll: -5, launcher: .container)
        let container = try await TesseraProcess.run(["status", "--database", path])
        #expect(container.standardError.contains("Start its container again"), "\(container.standardError)")

        // Running: this process holds the database's lock, as tessera run does.
        var lock: DatabaseLock? = try DatabaseLock(databasePath: path)
        // Just started: its first long poll has not come back yet.
        try await beat(started: -5, written: -5, lastPoll: nil)
        let starting = try await TesseraProcess.run(["status", "--database", path])
        #expect(starting.status == 0, "\(starting.standardError)")
        #expect(starting.standardOutput.hasPrefix("Starting: tessera run (telegram)"), "\(starting.standardOutput)")
        #expect(starting.standardOutput.contains("The first poll is still in progress"))
        // Stopped (kill -STOP) or stuck: it holds the database and writes no heartbeat.
        try await beat(started: -3_600, written: -600, lastPoll: -600)
        let stalled = try await TesseraProcess.run(["status", "--database", path])
        #expect(stalled.status == 1)
        #expect(
            stalled.standardError.hasPrefix("Error: Running but stalled: pid \(getpid()) on "),
            "\(stalled.standardError)")
        #expect(stalled.standardError.contains("kill -CONT \(getpid())"))
        withExtendedLifetime(lock) {}
        lock = nil  // the lock goes with the process
        #expect(
            try await TesseraProcess.run(["status", "--database", path]).standardError.hasPrefix("Error: Not running"))
    }

    @Test("tessera status on a database without a heartbeat, or no database, says so")
    func statusWithoutHeartbeat() async throws {
        let path = try TesseraProcess.temporaryDirectory().appendingPathComponent("t.sqlite").path
        let missing = try await TesseraProcess.run(["status", "--database", path])
        #expect(missing.status != 0 && missing.standardError.hasPrefix("Error: No database at \(path)"))
        try await SQLiteGameStore(path: path, logger: Logger(label: "test")).setSetting("other", "x")
        let silent = try await TesseraProcess.run(["status", "--database", path])
        #expect(silent.status != 0 && silent.standardError.hasPrefix("Error: No heartbeat in \(path)"))
    }
}
