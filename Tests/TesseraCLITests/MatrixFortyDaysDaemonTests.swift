import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

/// The forty days of ``FortyDaysDaemonTests`` on Matrix, against a real Synapse, in a Spanish room: Alice every
/// morning, Bob in the morning on even days, late on odd ones and not on day 12. The same daily rhythm, the
/// season's table in the formatted body; no member tags and no effects, which Matrix does not have, and nothing
/// tried for them.
@Suite("A group's forty days on Matrix, through the daemon", .serialized)
struct MatrixFortyDaysDaemonTests {
    @Test(
        "Forty days in a Spanish room: crowns, days together, one nudge a day, the season's table; nothing else tried")
    func fortyDays() async throws {
        try await Synapse.with { synapse in
            let bot = try await synapse.register("tessera")
            let alice = try await synapse.register("alice")
            let bob = try await synapse.register("bob")
            let group = try await synapse.createRoom(as: alice, inviting: [bot.userID, bob.userID])
            try await synapse.join(group, as: bob)
            let directs = [
                "alice": try await synapse.createRoom(as: alice, inviting: [bot.userID], direct: true),
                "bob": try await synapse.createRoom(as: bob, inviting: [bot.userID], direct: true),
            ]
            let accounts = ["alice": alice, "bob": bob]
            let directory = try TesseraProcess.temporaryDirectory()
            let clock = ClockFile(in: directory)
            try clock.set(FortyDaysDaemonTests.iso(day: -1, "T08:00:00Z"))
            try await MatrixDaemonTests.withDaemon(
                synapse, bot: bot, in: directory, environment: clock.environment
            ) {
                _ = try await synapse.waitForEvent(in: group, as: bob, where: MatrixDaemonTests.joined(bot.userID))
                for (name, room) in directs {
                    _ = try await synapse.waitForEvent(
                        in: room, as: accounts[name] ?? alice, where: MatrixDaemonTests.joined(bot.userID))
                }
                for account in [alice, bob] { try await synapse.say("!join", in: group, as: account) }
                for setting in ["language es", "nudge on"] {
                    let asked = try await synapse.say("!settings \(setting)", in: group, as: alice)
                    _ = try await synapse.waitForEvent(in: group, as: alice) { event in
                        let relation = MatrixDaemonTests.content(event)["m.relates_to"] as? [String: Any]
                        return (relation?["m.in_reply_to"] as? [String: Any])?["event_id"] as? String == asked
                    }
                }
                // Each plays the Spanish puzzle, the group's.
                for (name, room) in directs {
                    let account = accounts[name] ?? alice
                    let asked = try await synapse.say("!language es", in: room, as: account)
                    _ = try await synapse.waitForEvent(in: room, as: account) { event in
                        let relation = MatrixDaemonTests.content(event)["m.relates_to"] as? [String: Any]
                        return (relation?["m.in_reply_to"] as? [String: Any])?["event_id"] as? String == asked
                    }
                }
                var seen = Set<String>()
                /// The bot's next event in the group matching `text` in its plain body, not seen before.
                func next(_ text: String) async throws -> [String: Any] {
                    let before = seen
                    let event = try await synapse.waitForEvent(in: group, as: alice) { event in
                        MatrixDaemonTests.notice(from: bot.userID, containing: text, plain: true)(event)
                            && !before.contains(event["event_id"] as? String ?? "")
                    }
                    seen.insert(event["event_id"] as? String ?? "")
                    return event
                }
                func play(_ name: String, guesses: Int, puzzle: Int) async throws {
                    let words = try FamilyWeekDaemonTests.win(.spanish, puzzle, misses: guesses - 1)
                    let room = directs[name] ?? ""
                    let account = accounts[name] ?? alice
                    for word in words { try await synapse.say(word, in: room, as: account) }
                    _ = try await synapse.waitForEvent(in: room, as: account) { event in
                        let body = MatrixDaemonTests.shown(event)["body"] as? String ?? ""
                        return event["sender"] as? String == bot.userID && body.contains("Tessera \(puzzle)")
                            && body.contains("· \(guesses)/6")
                    }
                }
                var streaks: [Int: String] = [:]
                var nudges = 0
                var bobNudged: [Int] = []
                for day in 0..<FortyDaysDaemonTests.days {
                    let puzzle = FortyDaysDaemonTests.firstPuzzle + day
                    let (aliceGuesses, bobGuesses) = (day % 3 + 1, day % 2 + 1)
                    let bobPlays = day != FortyDaysDaemonTests.benAway
                    let bobLate = day % 2 == 1
                    try clock.set(FortyDaysDaemonTests.iso(day: day, "T10:00:00Z"))
                    try await play("alice", guesses: aliceGuesses, puzzle: puzzle)
                    if bobPlays && !bobLate { try await play("bob", guesses: bobGuesses, puzzle: puzzle) }
                    try clock.set(FortyDaysDaemonTests.iso(day: day, "T21:00:00Z"))
                    // Bob is named when late, at most twice in seven days.
                    if (!bobPlays || bobLate) && bobNudged.filter({ $0 > day - 7 }).count < 2 {
                        bobNudged.append(day)
                        let nudge = MatrixDaemonTests.shown(try await next("Aún por jugar"))["body"] as? String ?? ""
                        #expect(nudge.hasPrefix("⏳ Aún por jugar hoy: bob"), "day \(day): \(nudge)")
                        nudges += 1
                    }
                    try clock.set(FortyDaysDaemonTests.iso(day: day, "T22:45:00Z"))
                    if bobPlays && bobLate { try await play("bob", guesses: bobGuesses, puzzle: puzzle) }
                    try clock.set(FortyDaysDaemonTests.iso(day: day + 1, "T00:00:30Z"))
                    let summary = MatrixDaemonTests.shown(try await next("Todos aquí han terminado el reto \(puzzle)."))
                    let lines = (summary["body"] as? String ?? "").components(separatedBy: "\n")
                    let best = bobPlays ? min(aliceGuesses, bobGuesses) : aliceGuesses
                    let crowned = [("alice", aliceGuesses), ("bob", bobPlays ? bobGuesses : 7)]
                        .filter { $0.1 == best }.map(\.0).joined(separator: ", ")
                    #expect(lines.contains("👑 \(best)/6: \(crowned)"), "day \(day): \(lines)")
                    streaks[day] = lines.first { $0.contains("juntos") }?.components(separatedBy: " · ")[0]
                    if day == 28 {
                        let season = MatrixDaemonTests.shown(try await next("🏁"))
                        let formatted = season["formatted_body"] as? String ?? ""
                        #expect(formatted.contains("<table><thead><tr><th>#</th><th>Jugador</th>"), "\(formatted)")
                        #expect((season["body"] as? String ?? "").contains("🏆 Gana la temporada: bob"), "\(season)")
                    } else if (day + 1) % 7 == 0 {
                        let week = MatrixDaemonTests.shown(try await next("🏁"))
                        #expect((week["formatted_body"] as? String ?? "").contains("<td>🥇</td>"), "\(week)")
                    }
                }
                for day in 0..<FortyDaysDaemonTests.benAway {
                    #expect(streaks[day] == "🔥 Día \(day + 1) juntos", "day \(day): \(streaks[day] ?? "none")")
                }
                #expect(streaks.values.filter { $0.hasPrefix("🌱") }.count == 1, "said once: \(streaks)")
                // One nudge a day at most, and nothing but messages and reactions from the bot: no tags, no effects.
                let events = try await synapse.events(in: group, as: alice).filter {
                    $0["sender"] as? String == bot.userID
                }
                let posted = events.filter { ($0["content"] as? [String: Any])?["body"] as? String != nil }
                #expect(
                    posted.filter {
                        (MatrixDaemonTests.content($0)["body"] as? String)?.hasPrefix("⏳ Aún por jugar") == true
                    }.count
                        == nudges)
                let kinds = Set(events.compactMap { $0["type"] as? String })
                #expect(kinds.isSubset(of: ["m.room.message", "m.reaction", "m.room.member"]), "\(kinds)")
                for (name, room) in directs {
                    let texts = try await synapse.events(in: room, as: accounts[name] ?? alice).compactMap {
                        MatrixDaemonTests.content($0)["body"] as? String
                    }
                    #expect(!texts.contains("🎉"), "no confetti on Matrix")
                }
            }
        }
    }
}
