import TesseraCore

/// The bot's texts in Spanish.
struct Spanish: Texts {
    func welcome(gameName: String, wordLength: Int, maximumGuesses: Int) -> String {
        """
        <b>¡Bienvenido a \(gameName.htmlEscaped)!</b> Cada día todos reciben la misma palabra de \(wordLength) \
        letras, y tienes \(maximumGuesses) intentos para encontrarla.

        Envía una palabra para probar. Tras cada intento, los cuadros muestran lo cerca que estás:
        🟩 la letra está en ese lugar · 🟨 está en la palabra, en otro lugar · ⬛ no está en la palabra.

        """ + help
    }

    var help: String {
        """
        <b>Comandos</b>
        /guess PALABRA — probar una palabra (en un grupo: /guess@bot PALABRA; allí solo se ven los cuadros)
        /board — tu tablero de hoy
        /hard — modo difícil: hay que usar todas las pistas (solo antes del primer intento); /hard off
        /stats — tus estadísticas
        /share — publica tu resultado, sin desvelar nada, en este chat
        /leaderboard — los resultados de hoy en este grupo
        /timezone Europe/Madrid — cuándo empieza tu día (desde el próximo reto)
        /language en|es — el idioma en que juegas y lees
        """
    }

    let guessHowTo = "Envía una sola palabra para probar, o /help para ver los comandos."
    let guessNeedsWord = "Añade tu palabra: /guess GATOS"
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

    let hardModeBrokenInGroup =
        "Ese intento no usa todas las pistas (modo difícil). Prueba en privado conmigo para ver por qué."

    func alreadyFinished(_ result: GameResult, maximumGuesses: Int) -> String {
        "Ya has terminado el reto de hoy (\(TextFormat.score(result, maximumGuesses: maximumGuesses))). "
            + "La próxima palabra llega con el próximo reto."
    }

    func won(guesses: Int, maximumGuesses: Int) -> String {
        let praise = ["¡Genial!", "¡Magnífico!", "¡Impresionante!", "¡Espléndido!", "¡Muy bien!", "¡Uf!"]
        return "<b>\(praise[min(max(guesses, 1), praise.count) - 1])</b> Resuelto en \(guesses)/\(maximumGuesses). "
            + "Envía /share en un grupo para publicar tu resultado."
    }

    func lost(answer: String) -> String {
        "La palabra era <b>\(answer.htmlEscaped)</b>. La próxima llega con el próximo reto."
    }

    func groupProgress(name: String, squares: String, guesses: Int, maximumGuesses: Int) -> String {
        "\(name.htmlEscaped): \(squares) \(guesses)/\(maximumGuesses)"
    }

    func groupWon(name: String, guesses: Int, maximumGuesses: Int) -> String {
        "🎉 ¡\(name.htmlEscaped) ha resuelto el reto de hoy en \(guesses)/\(maximumGuesses)!"
    }

    func groupLost(name: String, maximumGuesses: Int) -> String {
        "\(name.htmlEscaped) no ha encontrado la palabra de hoy (X/\(maximumGuesses))."
    }

    let noGuessesYet = "Todavía no has probado ninguna palabra hoy. Envía una para empezar."
    let shareNotFinished = "Termina primero el reto de hoy; después /share publica tu resultado."

    let hardOn = "Modo difícil activado: hay que usar todas las pistas reveladas en los siguientes intentos."
    let hardOff = "Modo difícil desactivado."
    let hardLater =
        "El modo difícil solo se puede activar antes del primer intento. Estará activo desde tu próximo reto."

    func statistics(_ stats: Statistics, language: Language) -> String {
        """
        <b>Estadísticas</b> (\(language.name))
        Jugadas \(stats.played) · Victorias \(stats.winPercentage) % · Racha actual \(stats.currentStreak) · \
        Mejor racha \(stats.maxStreak)
        <pre>\(TextFormat.distribution(stats))</pre>
        """
    }

    let leaderboardPrivate = "Las clasificaciones son para grupos: añádeme a un grupo y juega o usa /share allí."
    func leaderboardEmpty(puzzle: PuzzleNumber) -> String {
        "Todavía no hay resultados del reto \(puzzle.grouped) en este grupo. Juega y usa /share aquí."
    }
    func leaderboard(puzzle: PuzzleNumber, lines: [String]) -> String {
        "<b>Clasificación · reto \(puzzle.grouped)</b>\n" + lines.joined(separator: "\n")
    }
    func stillPlaying(guesses: Int, maximumGuesses: Int) -> String {
        "jugando (\(guesses)/\(maximumGuesses))"
    }

    func timeZoneIs(_ zone: String, hour: Int, pending: (String, PuzzleNumber)?) -> String {
        var text =
            "Tu día sigue la zona <b>\(zone.htmlEscaped)</b>; cada reto nuevo llega a las \(TextFormat.clock(hour))."
        if let (next, puzzle) = pending {
            text += " Desde el reto \(puzzle.grouped) seguirá <b>\(next.htmlEscaped)</b>."
        }
        return text
    }
    func timeZoneChanged(_ zone: String, from puzzle: PuzzleNumber) -> String {
        "Desde el reto \(puzzle.grouped), tu día sigue la zona <b>\(zone.htmlEscaped)</b>. "
            + "El reto de hoy no cambia, así que ningún día se repite ni se salta."
    }
    func unknownTimeZone(_ text: String) -> String {
        "No conozco la zona horaria «\(text.htmlEscaped)». Usa un nombre como Europe/Madrid o America/Mexico_City."
    }

    func languageIs(_ language: Language) -> String {
        "Juegas en <b>\(language.name)</b>. Cámbialo con /language \(TextFormat.languageCodes)."
    }
    func languageChanged(_ language: Language) -> String {
        "Ahora juegas en <b>\(language.name)</b>; tus próximos intentos usan su lista de palabras."
    }
    func unknownLanguage(_ text: String) -> String {
        "No conozco el idioma «\(text.htmlEscaped)». Elige uno de estos: "
            + Language.allCases.map { "\($0.rawValue) (\($0.name))" }.joined(separator: ", ") + "."
    }
}
