import TesseraCore
import TesseraPictures

/// The bot's texts in Spanish.
struct Spanish: Texts {
    func welcome(gameName: String, wordLength: Int, maximumGuesses: Int) -> String {
        """
        <b>¡Bienvenido a \(gameName.htmlEscaped)!</b> Cada día todos reciben la misma palabra de \(wordLength) \
        letras, y tienes \(maximumGuesses) intentos para encontrarla.

        Envía una palabra para probar. Tras cada intento, los cuadros muestran lo cerca que estás:
        🟩 la letra está en ese lugar · 🟨 está en la palabra, en otro lugar · ⬛ no está en la palabra.

        /board tu tablero · /stats tus estadísticas · /share tu resultado
        /hard modo difícil · /timezone cuándo empieza tu día · /help todos los comandos
        """
    }

    var help: String {
        """
        <b>Comandos</b>
        /guess PALABRA — probar una palabra (o envía la palabra sola)
        /board — tu tablero de hoy
        /practice [en] [hard] — una partida de práctica con una palabra al azar, tantas como quieras
        /archive — los retos pasados que no jugaste; /archive 312 juega uno
        /play — vuelve al reto de hoy tras practicar
        /hard — modo difícil: hay que usar todas las pistas (solo antes del primer intento); /hard off
        /stats — tus estadísticas
        /analysis — tu última partida comparada con el juego óptimo
        /share — publica tu resultado, sin desvelar nada, en este chat
        /leaderboard [hoy|ayer|semana|mes|temporada|todo] — la clasificación de este grupo
        /leaderboard oficial [hoy|semana|mes|todo] — los resultados pegados de la app de Wordle
        /leaderboard oficial connections|strands|mini — los otros retos pegados hoy
        /join, /leave — entra en la clasificación de este grupo, o sal de ella
        /settings — el día, el idioma y el resumen del grupo (los administradores los cambian)
        /timezone Europe/Madrid — cuándo empieza tu día (desde el próximo reto)
        /remind on|off — un aviso antes de que acabe tu día si tu racha es de 3 o más
        /settings effects on|off — confeti cuando ganas, si tu app lo muestra
        /settings pictures on|off — tu tarjeta de resultado y tu gráfico de estadísticas como imágenes
        /language en|es — el idioma en que juegas y lees
        /export — todo lo que guardo de ti, en un archivo; /forgetme — bórralo todo
        """
    }

    var groupHelp: String {
        """
        <b>Tessera en este grupo</b>
        Todos juegan la misma palabra cada día, en privado conmigo, así que aquí nadie ve letras. Los \
        resultados se comparan aquí, y la palabra se muestra cuando cada miembro ha jugado o su día ha terminado.
        /play — juega el reto de hoy en nuestro chat privado
        /join, /leave — entra en la clasificación de este grupo, o sal de ella
        /leaderboard [hoy|ayer|semana|mes|temporada|todo] — la clasificación de este grupo
        /leaderboard oficial [hoy|semana|mes|todo] — los resultados pegados de la app de Wordle
        /leaderboard oficial connections|strands|mini — los otros retos pegados hoy
        /share — publica aquí tu resultado, sin desvelar nada
        /board — tus cuadros de hoy
        /settings — el día, el idioma y el resumen del grupo (los administradores los cambian)
        """
    }

    func greeting(seesEveryMessage: Bool) -> String {
        var steps = """
            👋 ¡Hola! Para empezar: un administrador elige el día del grupo con /settings timezone Europe/Madrid \
            (y /settings language es para jugar en español); luego quien quiera competir envía /join y juega \
            con /play.
            """
        if !seesEveryMessage {
            steps += """

                ⚠️ Aquí solo veo los comandos, así que los resultados de Wordle pegados no contarán. Para \
                arreglarlo, hazme administrador, o desactiva el modo privado con @BotFather (/setprivacy, Disable) \
                y vuelve a añadirme.
                """
        }
        return steps
    }

    func describe(_ command: BotCommand) -> String {
        switch command {
        case .play: "Juega el reto de hoy en privado"
        case .start: "Cómo se juega"
        case .guess: "Prueba una palabra: /guess CARTA"
        case .board: "Tu tablero de hoy"
        case .practice: "Practica con una palabra al azar: /practice en hard"
        case .archive: "Retos pasados que no jugaste: /archive 312"
        case .hard: "Modo difícil (antes del primer intento)"
        case .stats: "Tus estadísticas"
        case .analysis: "Tu última partida comparada con el juego óptimo"
        case .share: "Publica tu resultado sin destripar la palabra"
        case .leaderboard: "La clasificación del grupo: hoy, semana, mes, todo, oficial"
        case .join: "Entra en la clasificación del grupo"
        case .leave: "Sal de la clasificación del grupo"
        case .settings: "Los ajustes del grupo"
        case .timezone: "Cuándo empieza tu día: /timezone Europe/Madrid"
        case .language: "Idioma: /language en|es"
        case .remind: "Avisos de racha: /remind on|off"
        case .export: "Tus datos en un archivo"
        case .forgetme: "Borra todo lo que se guarda de ti"
        case .help: "Comandos"
        }
    }

    func practiceTitle(_ kind: PracticeGame.Kind, guesses: Int, maximumGuesses: Int, hardMode: Bool) -> String {
        let name =
            switch kind {
            case .practice: "Práctica"
            case .archive(let puzzle): "Archivo \(number(puzzle))"
            }
        return "<b>\(name)</b> · \(guesses)/\(maximumGuesses)\(hardMode ? " · modo difícil" : "")"
    }
    let practiceUsage = "Empieza una partida de práctica con /practice, o /practice en hard en inglés y modo difícil."
    let archiveUsage = "/archive muestra los retos pasados que no jugaste; /archive 312 juega el reto 312."
    func abandonQuestion(_ game: PracticeGame, typed: String?) -> String {
        let what =
            switch game.kind {
            case .practice: "tu partida de práctica"
            case .archive(let puzzle): "el reto \(number(puzzle)) del archivo"
            }
        return "Aún juegas \(what) (\(game.guesses.count) de 6 intentos). Una partida nueva la abandona"
            + (game.guesses.isEmpty
                ? "; sin ningún intento, no cuenta." : ": cuenta como abandonada en tus estadísticas de práctica.")
            + (typed.map { " Para empezar igualmente, envía <code>\($0.htmlEscaped)</code>." } ?? "")
    }
    let abandonButton = "Abandonar y empezar"
    func practiceLimit(_ limit: Int, timeLeft seconds: Double) -> String {
        "Hoy ya empezaste \(limit) partidas de práctica y del archivo, el máximo diario, para que las partidas de "
            + "todos sigan siendo rápidas. Más dentro de \(TextFormat.duration(seconds)); el reto de hoy siempre está "
            + "abierto con /play."
    }
    let practiceOff =
        "Las partidas de práctica y del archivo están desactivadas en este servidor. El reto de hoy está abierto con /play."
    let practiceNotFinished = "Termina antes esta partida; después /share te da su resultado para publicarlo."
    let practiceOver =
        "Esa partida ha terminado. /practice empieza otra, /archive muestra los retos pasados, /play es el de hoy."
    let practiceCommands = "/practice otra · /archive · /share · /analysis · /play el reto de hoy"
    let practiceAgainButton = "🎯 Practicar otra vez"
    let archiveButton = "🗂 Archivo"
    let practiceUnplayable =
        "La palabra de esa partida ya no está en mis listas, así que no puede seguir. /practice empieza otra."
    func archiveList(
        _ puzzles: [(PuzzleNumber, CivilDate)], language: Language, coming: (PuzzleNumber, LocalTime)?,
        older: String?
    ) -> String {
        var lines = ["<b>El archivo</b> (\(languageName(language))): retos pasados que no jugaste, del más reciente"]
        if let (puzzle, time) = coming {
            lines.append(
                "<i>El reto \(number(puzzle)) aún es el de hoy en algún lugar del mundo: entra en el archivo "
                    + "\(at(time)), tu hora.</i>")
        }
        lines += puzzles.map { "\(number($0.0)) · \($0.1)" }
        if let older { lines.append("Más antiguos: \(older)") }
        return lines.joined(separator: "\n")
            + "\n\nEnvía /archive NÚMERO para jugar uno. Solo cuenta en tus estadísticas de práctica."
    }
    let archiveMoreButton = "Más antiguos ▸"
    let archiveEmpty = "Has jugado todos los retos pasados. /practice juega una palabra al azar."
    func archiveStillOpen(_ puzzle: PuzzleNumber) -> String {
        "El reto \(number(puzzle)) aún es el de hoy en algún lugar del mundo, así que todavía no está en el "
            + "archivo. /play juega tu reto de hoy; /archive muestra los pasados."
    }
    let archiveNoSuchPuzzle = "No hay ningún reto pasado con ese número. /archive muestra los que puedes jugar."
    func archiveWithdrawn(_ puzzle: PuzzleNumber) -> String {
        "La palabra del reto \(number(puzzle)) se retiró de las listas, así que no se vuelve a jugar. "
            + "/archive muestra los que puedes jugar."
    }
    let practiceNothingYet =
        "Las palabras de práctica son las de retos pasados, y ninguno ha terminado aún en todo el mundo. "
        + "El reto de hoy está abierto con /play."
    func archivePlayed(_ puzzle: PuzzleNumber, result: GameResult, onItsDay: Bool) -> String {
        "Ya jugaste el reto \(number(puzzle)) " + (onItsDay ? "en su día" : "del archivo")
            + " (\(TextFormat.score(result, maximumGuesses: 6))). /archive muestra los que no has jugado."
    }
    func practiceStatistics(_ stats: Statistics, givenUp: Int, scores: AverageScores?) -> String {
        """
        <b>Práctica y archivo</b> (en ninguna clasificación)
        Jugadas \(stats.played) · Victorias \(stats.winPercentage) %\(givenUp > 0 ? " · Abandonadas \(givenUp)" : "")
        <pre>\(TextFormat.distribution(stats))</pre>
        """
            + (scores.map { "\n" + averageScores($0) } ?? "")
    }
    func officialStatistics(_ stats: Statistics) -> String {
        """
        <b>Wordle</b> (los resultados que pegaste en grupos)
        Jugadas \(stats.played) · Victorias \(stats.winPercentage) % · Racha actual \(stats.currentStreak) · \
        Mejor racha \(stats.maxStreak)
        <pre>\(TextFormat.distribution(stats))</pre>
        """
    }
    let practiceShareNotCounted = """
        Ese es un resultado de práctica o del archivo: no cuenta en ninguna clasificación, porque solo el reto del \
        día jugado en su día es justo para todos. ¡Bien jugado de todos modos!
        """
    func practiceShareAcknowledged(name: String) -> String {
        "Resultado de práctica de \(TextFormat.person(name)): no cuenta."
    }

    let guessHowTo = "Envía una sola palabra para probar, o /help para ver los comandos."
    let guessNeedsWord = "Añade tu palabra: /guess GATOS"
    func playPrivately(joined: Bool) -> String {
        "Los intentos se hacen en nuestro chat privado, para que nadie aquí vea tus letras. " + counts(joined: joined)
    }
    let playPrivatelyButton = "▶️ Jugar en privado"
    func playPrivatelyInvited(joined: Bool) -> String {
        "Te he invitado a un chat privado: los intentos se hacen allí, para que nadie aquí vea tus letras. "
            + counts(joined: joined)
    }

    private func counts(joined: Bool) -> String {
        joined
            ? "Tu resultado cuenta en la clasificación del grupo."
            : "Tu resultado cuenta en la clasificación del grupo cuando entras con /join."
    }
    let unknownCommand = "No conozco ese comando. /help muestra los que conozco."

    func rejection(_ rejection: GuessRejection) -> String {
        switch rejection {
        case .notEnoughLetters: "Faltan letras"
        case .tooManyLetters: "Sobran letras"
        case .notALetter(let character): "«\(String(character).htmlEscaped)» no es una letra"
        case .notInWordList: "La palabra no está en la lista"
        case .mustKeepLetter(let position, let letter): "La \(position + 1).ª letra debe ser \(letter)"
        case .mustContainLetter(let letter): "La palabra debe contener \(letter)"
        case .gameIsOver: "Esta partida ha terminado; la próxima palabra llega con el próximo reto"
        }
    }

    func alreadyFinished(_ result: GameResult, maximumGuesses: Int) -> String {
        "Ya has terminado el reto de hoy (\(TextFormat.score(result, maximumGuesses: maximumGuesses))). "
            + "La próxima palabra llega con el próximo reto."
    }

    func won(guesses: Int, maximumGuesses: Int) -> String {
        let praise = ["¡Genial!", "¡Magnífico!", "¡Impresionante!", "¡Espléndido!", "¡Muy bien!", "¡Uf!"]
        return "<b>\(praise[min(max(guesses, 1), praise.count) - 1])</b> Resuelto en \(guesses)/\(maximumGuesses)."
    }

    func lost(answer: String) -> String {
        "La palabra era <b>\(answer.htmlEscaped)</b>."
    }

    func boardTitle(gameName: String, puzzle: PuzzleNumber, guesses: Int, maximumGuesses: Int, hardMode: Bool)
        -> String
    {
        "<b>\(gameName.htmlEscaped) \(number(puzzle))</b> · \(guesses)/\(maximumGuesses)\(hardMode ? " · modo difícil" : "")"
    }

    func nextPuzzle(in seconds: Double) -> String {
        "⏳ Próximo reto en \(TextFormat.duration(seconds))"
    }

    let boardCommands = "/share para publicar tu resultado · /stats · /analysis"
    func forgetTyped(code: String) -> String {
        "Para borrarlo todo, envía: <code>/forgetme \(code.htmlEscaped)</code>. Cualquier otra cosa lo conserva todo."
    }
    let forgetWrongCode = "Ese código no es el que te di, así que no se ha borrado nada. /forgetme te da el código."
    let shareButton = "📤 Compartir"
    let copyButton = "📋 Copiar"
    let statsButton = "📊 Estadísticas"
    func shareTitle(_ headline: String) -> String { "Compartir \(headline)" }
    let shareFirstPlay = "Termina antes el reto de hoy"
    let guessDeleted =
        "🧹 He borrado ese intento: sus letras serían una pista para todos. Haré lo mismo con cualquier intento que se publique aquí."

    func effectsAre(on: Bool) -> String {
        on
            ? "🎉 Las victorias en nuestro chat llegan con confeti, si tu app lo muestra. /settings effects off lo quita."
            : "Las victorias en nuestro chat llegan sin confeti. /settings effects on lo devuelve."
    }
    func picturesAre(on: Bool) -> String {
        on
            ? "🖼 Cada partida terminada llega con su tarjeta, y /stats con su gráfico. /settings pictures off los quita."
            : "Sin imágenes en nuestro chat: el texto lo dice todo. /settings pictures on las devuelve."
    }
    func remindersAre(on: Bool, namedInNudges: Bool) -> String {
        on
            ? "🔔 Recordatorios activados: si tu racha es de 3 o más y no has jugado, te aviso 4 horas antes de que acabe tu día. /remind off los desactiva."
            : "🔕 Recordatorios desactivados\(namedInNudges ? "" : ", y los avisos de los grupos no te nombran"). "
                + "/remind on para recibir uno antes de que acabe tu día con tu racha en juego."
    }

    let remindUsage = "En nuestro chat privado: /remind on o /remind off."

    func reminder(streak: Int, timeLeft seconds: Double) -> String {
        "🔥 Tu racha de \(streak) se acaba en \(TextFormat.duration(seconds)) si no juegas el reto de hoy. Envía una palabra para empezar."
    }

    func groupProgress(name: String, squares: String, guesses: Int, maximumGuesses: Int) -> String {
        "\(TextFormat.person(name)): \(squares) \(guesses)/\(maximumGuesses)"
    }

    func groupWon(name: String, guesses: Int, maximumGuesses: Int) -> String {
        "🎉 ¡\(TextFormat.person(name)) ha resuelto el reto de hoy en \(guesses)/\(maximumGuesses)!"
    }

    func groupLost(name: String, maximumGuesses: Int) -> String {
        "\(TextFormat.person(name)) no ha encontrado la palabra de hoy (X/\(maximumGuesses))."
    }

    let noGuessesYet = "Todavía no has probado ninguna palabra hoy. Envía una para empezar."
    let shareNotFinished = "Termina primero el reto de hoy; después /share publica tu resultado."

    let hardOn = "Modo difícil activado: hay que usar todas las pistas reveladas en los siguientes intentos."
    let hardOff = "Modo difícil desactivado."
    let hardLater =
        "El modo difícil solo se puede activar antes del primer intento. Estará activo desde tu próximo reto."
    func onOffUsage(_ command: String) -> String { "Usa /\(command) on o /\(command) off." }

    func statistics(_ stats: Statistics, language: Language, scores: AverageScores?) -> String {
        """
        <b>Estadísticas</b> (\(languageName(language)))
        Jugadas \(stats.played) · Victorias \(stats.winPercentage) % · Racha actual \(stats.currentStreak) · \
        Mejor racha \(stats.maxStreak)
        <pre>\(TextFormat.distribution(stats))</pre>
        """
            + (scores.map { "\n" + averageScores($0) } ?? "")
    }
    let statisticsChartLabels = StatisticsChart.Labels(
        played: "Jugadas", winPercentage: "% de victorias", currentStreak: "Racha actual", maxStreak: "Mejor racha",
        distribution: "Distribución de intentos")
    func averageScores(_ scores: AverageScores) -> String {
        "Habilidad \(scores.skill) · Suerte \(scores.luck) de media en "
            + (scores.games == 1 ? "tu última partida analizada" : "tus últimas \(scores.games) partidas analizadas")
            + " (/analysis)"
    }

    let leaderboardPrivate = "Las clasificaciones son para grupos: añádeme a un grupo y juega o usa /share allí."
    func leaderboardEmpty(_ board: BoardKind, puzzle: PuzzleNumber) -> String {
        switch board {
        case .tessera: "Todavía no hay resultados del reto \(number(puzzle)) en este grupo. Juega y usa /share aquí."
        case .official:
            "Todavía no hay resultados del Wordle \(number(puzzle)) en este grupo. Pega el tuyo de la app de Wordle."
        case .connections, .strands, .mini: "Todavía no hay resultados de ese reto en este grupo."
        }
    }
    func stillPlaying(guesses: Int, maximumGuesses: Int) -> String {
        "jugando (\(guesses)/\(maximumGuesses))"
    }

    func timeZoneIs(_ zone: String, hour: Int, pending: (String, PuzzleNumber)?) -> String {
        var text =
            "Tu día sigue la zona <b>\(zone.htmlEscaped)</b>; cada reto nuevo llega a las \(TextFormat.clock(hour))."
        if let (next, puzzle) = pending {
            text += " Desde el reto \(number(puzzle)) seguirá <b>\(next.htmlEscaped)</b>."
        }
        return text
    }
    func yourDay(_ zone: String, hour: Int) -> String {
        "🕰️ Tu día sigue <b>\(zone.htmlEscaped)</b>, con nuevo reto a las \(TextFormat.clock(hour)); "
            + "¿otra zona? Envía /timezone y su nombre, como /timezone Europe/Madrid."
    }
    func timeZoneChanged(_ zone: String, from puzzle: PuzzleNumber) -> String {
        "Desde el reto \(number(puzzle)), tu día sigue la zona <b>\(zone.htmlEscaped)</b>. "
            + "El reto de hoy no cambia, así que ningún día se repite ni se salta."
    }
    func unknownTimeZone(_ text: String) -> String {
        "No conozco la zona horaria «\(TextFormat.echo(text))». Usa un nombre como Europe/Madrid o America/Mexico_City."
    }

    func languageIs(_ language: Language) -> String {
        "Juegas en <b>\(languageName(language))</b>. Cámbialo con /language \(TextFormat.languageCodes)."
    }
    func languageChanged(_ language: Language) -> String {
        "Ahora juegas en <b>\(languageName(language))</b>; tus próximos intentos usan su lista de palabras."
    }
    /// A number as Spanish writes it: four digits together (2026), longer ones in groups of three with a
    /// non-breaking space (12 345), as the RAE recommends.
    static func number(_ value: Int) -> String {
        String(value.magnitude).count > 4 ? TextFormat.grouped(value, separator: "\u{00A0}") : String(value)
    }
    private func number(_ puzzle: PuzzleNumber) -> String { Self.number(puzzle.rawValue) }

    /// A date as Spanish writes it in running text: "30 de noviembre".
    private func date(_ day: CivilDate) -> String { "\(day.day) de \(months[day.month - 1])" }
    private let months = [
        "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
        "noviembre", "diciembre",
    ]

    func openGames(_ games: [OpenGame]) -> String {
        let names = games.map { game in
            switch game {
            case .daily(let language): "el reto de hoy en \(languageName(language))"
            case .practice(.practice, let language): "tu partida de práctica en \(languageName(language))"
            case .practice(.archive(let puzzle), let language):
                "el reto \(number(puzzle)) del archivo, en \(languageName(language))"
            }
        }
        return "Abiertos ahora: " + names.joined(separator: " y ") + ". Cada palabra va a la partida de su idioma."
    }
    func languageName(_ language: Language) -> String {
        switch language {
        case .english: "inglés"
        case .spanish: "español"
        }
    }
    func inLanguage(_ language: Language) -> String { "en \(languageName(language))" }
    func playing(_ language: Language) -> String {
        "Tus palabras van al reto de hoy en <b>\(languageName(language))</b>, que tiene su propio tablero, "
            + "estadísticas y racha. Envía una palabra para probar; /play \(TextFormat.languageCodes) cambia de reto."
    }
    let playUsage =
        "Elige el reto por su idioma: /play \(TextFormat.languageCodes). Para probar, envía la palabra sola."
    func groupPlays(_ language: Language) -> String {
        "Este grupo juega el reto en <b>\(languageName(language))</b>: solo ese cuenta en su tablero. Juégalo en "
            + "nuestro chat privado con /play \(language.rawValue); tu propio reto conserva sus estadísticas."
    }
    func unknownLanguage(_ text: String) -> String {
        "No conozco el idioma «\(TextFormat.echo(text))». Elige uno de estos: "
            + Language.allCases.map { "\($0.rawValue) (\(languageName($0)))" }.joined(separator: ", ") + "."
    }

    // MARK: Group boards

    let groupsOnly = "Ese comando es para grupos. Añádeme a un grupo para competir allí."
    func joined(name: String) -> String {
        "\(TextFormat.person(name)) se unió a la clasificación de este grupo: tus resultados de cada día cuentan aquí."
    }
    func alreadyJoined(name: String) -> String {
        "\(TextFormat.person(name)), ya estás en la clasificación de este grupo."
    }
    func left(name: String) -> String {
        "\(TextFormat.person(name)) ha salido de la clasificación de este grupo; los días ya jugados siguen en sus "
            + "semanas y temporadas. Juega o usa /join aquí para volver."
    }
    let notJoined = "No estás en la clasificación de este grupo. Usa /join para participar."

    let periodNames: [BoardPeriod: String] = [
        .today: "hoy", .yesterday: "ayer", .week: "semana", .month: "mes", .all: "todo",
    ]
    func unknownPeriod(_ text: String) -> String {
        "No conozco el periodo «\(TextFormat.echo(text))». Usa /leaderboard hoy, ayer, semana, mes, temporada o todo, "
            + "tras oficial para los resultados de la app de Wordle."
    }
    func leaderboardToday(
        _ board: BoardKind, puzzle: PuzzleNumber, yesterday final: Bool?, lines: [RichLayout.Row]
    ) -> RichLayout {
        var title = board == .official ? "Wordle oficial \(number(puzzle))" : "Clasificación · reto \(number(puzzle))"
        if let final { title += final ? " · ayer · definitiva" : " · ayer · aún cuentan resultados tardíos" }
        return .board(title: title, header: dayHeader, rows: lines)
    }
    func leaderboardPeriod(
        _ board: BoardKind, _ period: BoardPeriod, since: CivilDate?, ended: Bool, lines: [RichLayout.Row]
    ) -> RichLayout {
        let title: String =
            switch period {
            case .today: "hoy"
            case .yesterday: "ayer"
            case .week: "esta semana"
            case .month: "este mes"
            case .all: "histórica"
            }
        let shown = ended ? "la semana pasada" : title
        let rule =
            period == .all
            ? "Por puntos por partida, sumando 10 partidas más de 3 puntos, para que una partida con suerte no gane."
            : "Puntos: 7 − intentos por victoria, +1 en modo difícil, 0 por derrota o día sin jugar."
        let start = since.map { " (desde el \(date($0)))" } ?? ""
        let name = board == .official ? "Wordle oficial" : "Clasificación"
        return .board(title: "\(name) · \(shown)\(start)", header: standingsHeader, rows: lines, note: rule)
    }
    func standingLine(
        place: String, name: String, standing: Standing, score: Double?, streak: Int, crowns: Int, missed: Int?
    ) -> RichLayout.Row {
        let total =
            score.map { TextFormat.decimal($0, separator: ",") + " por partida" } ?? "\(standing.points) pts"
        var detail = [standing.played == 0 ? "sin partidas" : "ganó \(standing.wins)/\(standing.played)"]
        if let average = standing.averageGuesses {
            detail.append("media \(TextFormat.decimal(average, separator: ","))")
        }
        if let missed, missed > 0 { detail.append("faltó \(missed)") }
        return TextFormat.standing(
            place: place, name: name, total: total, streak: streak, crowns: crowns, detail: detail)
    }
    func more(_ count: Int) -> String { "… y \(count) más" }

    // MARK: Pasted results

    let officialBoardName = "oficial"
    let pasteInGroup =
        "Los resultados cuentan en los grupos: pégalo en un grupo donde esté y entrará en la clasificación oficial."
    func officialCounted(name: String, share: SharedResult) -> String {
        let headline = share.headline { number($0) }
        return
            "✅ \(TextFormat.person(name)): \(headline.htmlEscaped) entra en la clasificación oficial (/leaderboard oficial)."
    }
    func officialDuplicate(name: String, puzzle: PuzzleNumber) -> String {
        "\(TextFormat.person(name)), tu Wordle \(number(puzzle)) ya cuenta aquí; vale el primer resultado."
    }
    func officialNotOpen(puzzle: PuzzleNumber) -> String {
        "El Wordle \(number(puzzle)) aún no ha salido aquí, así que no cuenta."
    }
    func officialClosed(puzzle: PuzzleNumber, today: PuzzleNumber) -> String {
        "El Wordle \(number(puzzle)) está cerrado; solo cuenta el de hoy, \(number(today)), o uno de un día antes o después."
    }
    let editIgnored = "Las ediciones no cuentan: vale el resultado tal como se publicó."

    func summarySoFarTitle(puzzle: PuzzleNumber) -> String { "⏳ El reto \(number(puzzle)), por ahora" }
    func summaryWord(_ spoiler: String) -> String { "La palabra era \(spoiler)." }
    func summaryWord(in language: Language, _ spoiler: String) -> String { "en \(languageName(language)), \(spoiler)" }
    let and = "y"
    func weekOverTitle(since monday: CivilDate) -> String { "🏁 Terminó la semana desde el \(date(monday))." }
    let weekBestStreak = "Mejor racha"
    func weekEveryonePlayed(_ days: Int, of total: Int) -> String {
        days == 0
            ? "Ningún día jugó todo el grupo: ¿uno la semana que viene?"
            : "Todos jugaron \(days) de "
                + (total == 7 ? "7 días." : "los \(total) días desde que empezó esta clasificación.")
    }
    func seasonName(_ length: SeasonLength, first: CivilDate) -> String {
        length == .month
            ? "la temporada de \(months[first.month - 1])"
            : "la temporada de las cuatro semanas desde el \(weekdays[first.weekday].lowercased()) \(date(first))"
    }
    func seasonOverTitle(_ season: String) -> String { "🏁 Terminó \(season)." }
    func seasonChampion(_ names: String) -> String { "Gana la temporada: \(names)" }
    func seasonMostImproved(_ improvement: SeasonSummary.Improvement) -> String {
        "Quien más mejora: \(TextFormat.person(improvement.name)) (\(TextFormat.decimal(improvement.from, separator: ",")) → "
            + "\(TextFormat.decimal(improvement.to, separator: ",")) intentos por partida)"
    }
    func seasonBestStreak(_ names: String, streak: Int) -> String {
        "Mejor racha: \(names) (\(streak) victorias seguidas)"
    }
    func seasonMostSkilful(_ skill: SeasonSummary.Skill) -> String {
        "Más habilidad: \(TextFormat.person(skill.name)) (habilidad \(skill.skill), en \(skill.games) partidas analizadas)"
    }
    let seasonNext = "Empieza una temporada nueva: todos vuelven a 0."
    let championTag = "Campeón/a"
    let seasonBoardName = "temporada"
    func leaderboardSeason(_ season: String, until last: CivilDate, lines: [RichLayout.Row]) -> RichLayout {
        .board(
            title: "\(season.prefix(1).uppercased() + season.dropFirst()) · hasta el "
                + "\(weekdays[last.weekday].lowercased()) \(date(last))",
            header: standingsHeader, rows: lines,
            note: "Puntos: 7 − intentos si aciertas, +1 en modo difícil, 0 si fallas o no juegas. 👑: días con el "
                + "mejor resultado.")
    }
    let boardColumns = BoardColumns(player: "Jugador", result: "Resultado", points: "Puntos", games: "Partidas")
    let seasonsOff = "Este grupo juega sin temporadas; un administrador las activa con /settings season month."
    func seasonSetting(_ length: SeasonLength) -> String {
        switch length {
        case .month: "un mes natural"
        case .fourWeeks: "cuatro semanas desde un lunes"
        case .off: "desactivadas"
        }
    }
    func summaryOfficial(puzzle: PuzzleNumber) -> String { "Wordle \(number(puzzle)), pegados" }
    let weekdays = ["domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"]
    func summaryWordLater(waitingFor names: String, count: Int, until: LocalTime) -> String {
        "🔒 La palabra llegará cuando \(count == 1 ? "haya" : "hayan") jugado \(names), o \(at(until))."
    }
    /// `a las 06:00`, `mañana a la 01:00`, `el jueves a las 06:00`; la próxima medianoche es `a medianoche`.
    private func at(_ time: LocalTime) -> String {
        if time.isComingMidnight { return "a medianoche" }
        let day = time.daysAhead == 0 ? "" : time.daysAhead == 1 ? "mañana " : "el \(weekdays[time.weekday]) "
        return "\(day)\(time.hour == 1 ? "a la" : "a las") \(time.clock)"
    }
    let summaryWordNotPosted =
        "🔒 Este chat no puede ocultar la palabra, así que no se publica aquí: cada jugador la ve en su propio tablero."
    func revealTitle(puzzle: PuzzleNumber) -> String { "🔓 Todos aquí han terminado el reto \(number(puzzle))." }
    func highlights(_ highlights: DayHighlights) -> String {
        "🎯 Más hábil: \(TextFormat.person(highlights.skilful.name)) (habilidad \(highlights.skilful.score) de 99)"
    }

    let analysisButton = "🔍 Análisis"
    let analysisPrivateOnly = "Un análisis nombra palabras, así que va en nuestro chat privado: envía /analysis allí."
    let analysisNoGame = "Aún no hay ninguna partida terminada que analizar. Termina el reto de hoy y prueba /analysis."
    let analysisUsage = "Envía /analysis para tu última partida."
    func analysisComing(unstudied opener: String?) -> String {
        guard let opener else {
            return "🔍 Estoy comparando tus intentos con el juego óptimo: el análisis llega aquí en unos segundos."
        }
        return "🔍 Estoy comparando tus intentos con el juego óptimo. Aún no había estudiado "
            + "<code>\(opener.uppercased().htmlEscaped)</code> como primera palabra, así que este tarda más: hasta unos minutos; "
            + "publicaré el análisis aquí cuando esté listo."
    }
    let analysisUnavailable =
        "Esta partida no se puede analizar: una de sus palabras ya no está en la lista. Las demás partidas sí."
    func analysisTitle(_ game: AnalysedGame, hardMode: Bool) -> String {
        let name =
            switch game {
            case .daily(let puzzle): "Tessera \(number(puzzle))"
            case .practice(.practice): "Práctica"
            case .practice(.archive(let puzzle)): "Archivo \(number(puzzle))"
            }
        return "🔍 Análisis · \(name)" + (hardMode ? " · modo difícil" : "")
    }
    func wordsLeft(before: Int, after: Int) -> String {
        "\(Self.number(before)) → \(Self.number(after)) \(after == 1 ? "palabra" : "palabras")"
    }
    func verdict(_ turn: AnalysisReport.Turn, opener: Bool) -> String {
        if turn.wins { return "🎯 resuelto" }
        let bot = turn.best.map { " (bot: <code>\($0.uppercased().htmlEscaped)</code>)" } ?? ""
        if turn.givesUpSureWin { return "⚠️ arriesgada: sin victoria segura en seis tras ella" + bot }
        func guesses(_ value: Double) -> String { TextFormat.guesses(value, separator: ",") }
        if opener, let best = turn.best, case .exactly(let cost)? = turn.cost, cost >= 0.005 {
            return "\(guesses(cost)) intentos por detrás de <code>\(best.uppercased().htmlEscaped)</code> de media"
        }
        switch turn.cost {
        case .exactly(let cost)?: return cost < 0.005 ? "✅ óptima" : "costó \(guesses(cost)) intentos" + bot
        case .between(let lower, let upper)?: return "costó \(guesses(lower))–\(guesses(upper)) intentos" + bot
        case .atLeast(let lower)?: return "costó al menos \(guesses(lower)) intentos" + bot
        case .atMost(let upper)?: return "costó como mucho \(guesses(upper)) intentos" + bot
        case .unknown?: return "⏱ coste sin calcular a tiempo" + bot
        case nil: return "ya no había victoria segura en seis"
        }
    }
    func luck(_ value: Known?) -> String {
        func guesses(_ value: Double) -> String { TextFormat.guesses(value, separator: ",", signed: true) }
        func plain(_ value: Double) -> String { TextFormat.guesses(abs(value), separator: ",") }
        switch value {
        case .exactly(let luck)? where abs(luck) < 0.005: return "suerte la esperada"
        case .exactly(let luck)? where luck > 0: return "buena suerte: \(plain(luck)) intentos mejor de lo esperado"
        case .exactly(let luck)?: return "mala suerte: \(plain(luck)) intentos peor de lo esperado"
        case .between(let lower, let upper)?:
            return "suerte de \(guesses(lower)) a \(guesses(upper)) intentos frente a lo esperado"
        case .atLeast(let lower)?: return "suerte de al menos \(guesses(lower)) intentos frente a lo esperado"
        case .atMost(let upper)?: return "suerte de como mucho \(guesses(upper)) intentos frente a lo esperado"
        case .unknown?, nil: return "suerte —"
        }
    }
    func analysisScores(skill: ClosedRange<Int>, luck: ClosedRange<Int>) -> String {
        "<b>Habilidad \(TextFormat.score(skill))/99 · Suerte \(TextFormat.score(luck))/99</b>"
    }
    let analysisBounded =
        "⏱ Parte de esta partida lleva demasiado tiempo para calcularla con exactitud, así que algunos valores son "
        + "intervalos: el valor exacto está dentro de cada uno."
    func botPath(_ words: [String], optimal: Bool) -> String {
        "🤖 Desde tu primera palabra, el bot juega " + words.map { "<code>\($0)</code>" }.joined(separator: " → ")
            + (optimal ? "" : " (sus últimas jugadas son de una estrategia rápida, sin garantía de ser las mejores)")
    }
    let summaryStillPlaying = "Aún jugando"

    let summaryStreaksGoing = "Rachas en marcha"
    let summaryStreaksBroken = "Rachas rotas"
    let nudgeStillToPlay = "Aún por jugar hoy"
    func otherPuzzleScore(_ game: PuzzleShare.Game, measure: Int?) -> String {
        switch (game, measure) {
        case (.connections, nil): "sin resolver"
        case (.connections, 1?): "1 error"
        case (.connections, let mistakes?): "\(mistakes) errores"
        case (.strands, 0?): "sin pistas"
        case (.strands, 1?): "1 pista"
        case (.strands, let hints): "\(hints ?? 0) pistas"
        case (.mini, let seconds): TextFormat.minutesAndSeconds(seconds ?? 0)
        }
    }
    func otherPuzzleBoard(
        _ game: PuzzleShare.Game, puzzle: PuzzleNumber, yesterday: Bool, lines: [RichLayout.Row]
    ) -> RichLayout {
        let name = TextFormat.name(of: game) + (game == .mini ? "" : " \(number(puzzle))")
        return .board(
            title: "\(TextFormat.mark(of: game)) \(name) · \(yesterday ? "ayer" : "hoy")", header: dayHeader,
            rows: lines)
    }
    func dayPuzzles(yesterday: Bool) -> String { yesterday ? "Los retos de ayer" : "Los retos de hoy" }
    func otherPuzzleCounted(name: String, game: PuzzleShare.Game, score: String) -> String {
        "✅ \(TextFormat.person(name)): \(TextFormat.name(of: game)) \(score) cuenta para hoy aquí."
    }
    func otherPuzzleDuplicate(name: String, game: PuzzleShare.Game) -> String {
        "\(TextFormat.person(name)), tu \(TextFormat.name(of: game)) de ese día ya cuenta aquí; vale el primer resultado."
    }
    func otherPuzzleNotToday(_ game: PuzzleShare.Game) -> String {
        "Ese \(TextFormat.name(of: game)) no es el de hoy aquí, así que no cuenta; el de hoy, o uno de un día antes o después, sí."
    }
    func groupStreak(_ news: GroupStreakNews) -> String {
        switch news {
        case .going(let days): "🔥 Día \(days) juntos"
        case .ended(let days): "🌱 Los \(days) días juntos del grupo terminan aquí. Toda racha empieza con un día."
        }
    }
    let summaryMissed = "No jugaron"

    // MARK: The player's data

    let privateOnly = "Pídemelo en nuestro chat privado: se trata de tus propios datos."
    let cannotRead = """
        🔒 No puedo leer mensajes cifrados, así que aquí no puedo jugar. Invítame a una sala sin cifrado \
        (desactiva el cifrado de extremo a extremo al crearla) y juega allí.
        """
    let forgetQuestion = """
        Esto borra todo lo que guardo de ti: tus ajustes, todas tus partidas, tus estadísticas y tus resultados \
        en la clasificación de cada grupo. No se puede deshacer. ¿Lo borro todo?
        """
    let forgetConfirmButton = "Sí, bórralo todo"
    let forgetCancelButton = "No, consérvalo"
    let forgotten = "Hecho: he borrado todo lo que guardaba de ti. Envía /start para volver a jugar como jugador nuevo."
    let slowDown =
        "Más despacio, por favor: aún estoy respondiendo a tus mensajes anteriores y no contestaré los nuevos."
    let playedBeforeForgetting =
        "Jugaste este reto antes de borrar tus datos, así que no puedes volver a jugarlo. El siguiente es tuyo."
    let forgetCancelled = "No se ha borrado nada."
    let exportCaption = "Todo lo que guardo de ti, en JSON."

    // MARK: Group settings

    func pendingSettings(_ group: Group) -> String {
        guard let next = group.pending, let from = group.pendingFrom else { return "" }
        return """

            Desde el reto \(number(from)) (el de hoy conserva su día e idioma): \(next.timeZone.htmlEscaped), \
            nuevo reto a las \(TextFormat.clock(next.rolloverHour)), \(languageName(next.language))
            """
    }

    let settingsTitle = "Ajustes de este grupo"
    let settingsChangedWith = "Los administradores los cambian con:"
    func setting(_ setting: GroupSetting, of group: Group, next: NextSummary?) -> String {
        switch setting {
        case .day: "Día: \(group.timeZone.htmlEscaped), nuevo reto a las \(TextFormat.clock(group.rolloverHour))"
        case .language:
            "Idioma: \(languageName(group.language))"
                + (group.team.languageOnly
                    ? " solamente: las partidas en otro idioma no cuentan aquí"
                    : " · cada miembro juega en su idioma, y todos los resultados cuentan")
        case .hardMode: "Modo difícil obligatorio: \(group.hardModeRequired ? "sí" : "no")"
        case .summary:
            "Resumen diario: "
                + (next.map { next in
                    (group.summaryHour.map { "a las \(TextFormat.clock($0))" } ?? "con el nuevo reto")
                        + " · el próximo: el reto del \(weekdays[next.day.weekday]), el \(weekdays[next.postedOn.weekday]) "
                        + "\(date(next.postedOn)) a las \(next.clock)"
                } ?? "desactivado")
        case .topic: "El bot publica en: \(group.topic.map { "el tema \($0)" } ?? "el chat principal")"
        case .nudge:
            "Aviso \(Int(GroupTeam.nudgeLead / 3600)) horas antes de que acabe el día de cada miembro: "
                + (group.team.nudge ? "activado" : "desactivado")
        case .season: "Temporadas: \(seasonSetting(group.team.season))"
        case .pictures:
            "Tarjeta del día con el resumen (los colores de todos, nunca una letra): "
                + (group.team.pictures ? "activada" : "desactivada")
        }
    }
    func dayChangeFrom(_ puzzle: PuzzleNumber) -> String { "📣 Desde el reto \(number(puzzle)), " }
    func dayChangeLanguage(_ language: Language, only: Bool) -> String {
        only
            ? "este grupo juega el reto en <b>\(languageName(language))</b>"
            : "este grupo publica en <b>\(languageName(language))</b>, y cada uno sigue jugando en su idioma"
    }
    func dayChangeDay(_ zone: String, hour: Int) -> String {
        "su día sigue <b>\(zone.htmlEscaped)</b>, con nuevo reto a las \(TextFormat.clock(hour))"
    }
    func dayChangeOldLanguage(_ language: Language) -> String {
        "En su primer día, una partida en \(languageName(language)) también cuenta."
    }
    let settingsAdministratorsOnly = "Lo siento, solo los administradores de este grupo pueden cambiar sus ajustes."
    let settingsCannotCheck =
        "No he podido comprobar si administras este grupo. Vuelve a intentarlo dentro de un minuto."
    let settingsNoTopics = "Este chat no tiene temas: los resúmenes se publican en el propio chat."
    func settingsUsage(for name: String) -> String {
        "No he entendido ese ajuste. Usa:\n" + TextFormat.settingsCommands(for: name)
    }
}
