/// Something the user can ask for with a key.
public enum Action: String, CaseIterable, Hashable, Sendable {
    case left, right, up, down, first, last
    case lift, drop, cancel
    case toggleMark = "toggle-mark"
    case moveLeft = "move-left", moveRight = "move-right", moveUp = "move-up", moveDown = "move-down"
    case previousPage = "previous-page", nextPage = "next-page"
    case addBelow = "add-below", addTop = "add-top", editTitle = "edit-title", deleteCard = "delete-card"
    case toggleDone = "toggle-done", editExternal = "edit-external"
    case toggleSubtask = "toggle-subtask", setDue = "set-due", setTags = "set-tags"
    case addColumn = "add-column", renameColumn = "rename-column", deleteColumn = "delete-column"
    case moveColumnLeft = "move-column-left", moveColumnRight = "move-column-right", setLimit = "set-limit"
    case setAccepts = "set-accepts"
    case undo, redo, filter, help, quit, suspend
    case toggleCompact = "toggle-compact"
    case metrics
    case nextBoard = "next-board", previousBoard = "previous-board", moveToBoard = "move-to-board"
    case messages
    // Swimlanes (#26)
    case moveLaneUp = "move-lane-up", moveLaneDown = "move-lane-down"
    case toggleLanes = "toggle-lanes", collapseLane = "collapse-lane"

    /// What the action does, for the help screen and the README.
    public var summary: String {
        switch self {
        case .left: "select the previous column"
        case .right: "select the next column"
        case .up: "select the card above"
        case .down: "select the card below"
        case .first: "select the first card"
        case .last: "select the last card"
        case .lift: "lift the selected card (then move it, and drop with space or enter)"
        case .drop: "drop the lifted card; with none lifted, open the selected card"
        case .cancel: "cancel the drag / clear the marked cards, then the filter / close"
        case .toggleMark:
            "mark or unmark the card (or alt-click it, or click its mark box); marked cards drag together and stay marked until esc"
        case .moveLeft: "move the card to the previous column"
        case .moveRight: "move the card to the next column"
        case .moveUp: "move the card up one place (in swimlanes: among its lane's cards)"
        case .moveDown: "move the card down one place (in swimlanes: among its lane's cards)"
        case .previousPage: "show the previous page of columns (in swimlanes: in the lane you were looking at)"
        case .nextPage: "show the next page of columns (in swimlanes: in the lane you were looking at)"
        case .addBelow: "add a card below the selection"
        case .addTop: "add a card at the top of the column"
        case .editTitle: "edit the card's title"
        case .deleteCard: "delete the card"
        case .toggleDone: "toggle the card's done mark"
        case .editExternal: "edit the whole card (description, sub-tasks) in $EDITOR"
        case .toggleSubtask: "tick the card's next open sub-task (untick all when none is open)"
        case .setDue: "set the card's due date (empty clears it)"
        case .setTags: "set the card's #tags"
        case .addColumn: "add a column after this one"
        case .renameColumn: "rename the column"
        case .deleteColumn: "delete the column (asks when it has cards)"
        case .moveColumnLeft: "move the column left"
        case .moveColumnRight: "move the column right"
        case .setLimit: "set the column's WIP limit (empty: none)"
        case .setAccepts: "set which columns this one accepts cards from (empty: any)"
        case .undo: "undo"
        case .redo: "redo"
        case .filter: "filter cards by text or #tag"
        case .help: "show this help"
        case .quit: "quit (everything is already saved)"
        case .suspend: "suspend to the shell (fg to come back)"
        case .toggleCompact: "switch between full cards and the compact view (one line per card)"
        case .metrics: "show the flow metrics from the board's history (cycle time, throughput, flow, aging, forecast)"
        case .nextBoard: "show the next board of the workspace (or click its tab)"
        case .previousBoard: "show the previous board of the workspace"
        case .moveToBoard:
            "move the card (or the marked cards) to another board: asks board:column or board:column:N (at row N), tab completes"
        case .messages: "show the recent status messages, each whole, with their times (like vim's :messages)"
        case .moveLaneUp: "move the card to the swimlane above (same column; its lane tag changes)"
        case .moveLaneDown: "move the card to the swimlane below (same column; its lane tag changes)"
        case .toggleLanes: "show the board in swimlanes or as plain columns (this session)"
        case .collapseLane: "collapse or expand the selected card's swimlane (or click the lane's header)"
        }
    }
}

/// A key with its modifiers, as bindings name it: `h`, `H`, `ctrl-r`, `left`, `space`, `enter`.
public struct KeyChord: Hashable, Sendable, CustomStringConvertible {
    public var key: Key
    public var modifiers: Modifiers

    public init(_ key: Key, _ modifiers: Modifiers = []) {
        self.key = key
        self.modifiers = modifiers
    }

    /// Parses a chord name; nil when it is not one.
    public init?(name: String) {
        var mods: Modifiers = []
        var rest = Substring(name)
        while true {
            if rest.hasPrefix("ctrl-") || rest.hasPrefix("ctrl+") {
                mods.insert(.ctrl); rest = rest.dropFirst(5)
            } else if rest.hasPrefix("alt-") || rest.hasPrefix("alt+") {
                mods.insert(.alt); rest = rest.dropFirst(4)
            } else if rest.hasPrefix("shift-") || rest.hasPrefix("shift+") {
                mods.insert(.shift); rest = rest.dropFirst(6)
            } else {
                break
            }
        }
        let named: [String: Key] = [
            "left": .left, "right": .right, "up": .up, "down": .down, "home": .home, "end": .end,
            "pageup": .pageUp, "pagedown": .pageDown, "insert": .insert, "delete": .delete,
            "enter": .enter, "tab": .tab, "backspace": .backspace, "esc": .escape, "escape": .escape,
            "space": .char(" "),
        ]
        if let k = named[rest.lowercased()] {
            self.init(k, mods)
        } else if rest.count == 1, let ch = rest.first {
            self.init(.char(mods.contains(.ctrl) ? Character(ch.lowercased()) : ch), mods)
        } else if rest.lowercased().hasPrefix("f"), let n = Int(rest.dropFirst()), (1...12).contains(n) {
            self.init(.function(n), mods)
        } else {
            return nil
        }
    }

    public var description: String {
        var s = ""
        if modifiers.contains(.ctrl) { s += "ctrl-" }
        if modifiers.contains(.alt) { s += "alt-" }
        if modifiers.contains(.shift) { s += "shift-" }
        switch key {
        case .char(" "): s += "space"
        case .char(let c): s += String(c)
        case .enter: s += "enter"
        case .tab: s += "tab"
        case .backspace: s += "backspace"
        case .escape: s += "esc"
        case .up: s += "up"
        case .down: s += "down"
        case .left: s += "left"
        case .right: s += "right"
        case .home: s += "home"
        case .end: s += "end"
        case .pageUp: s += "pageup"
        case .pageDown: s += "pagedown"
        case .insert: s += "insert"
        case .delete: s += "delete"
        case .function(let n): s += "f\(n)"
        }
        return s
    }
}

/// The one table of key bindings: the app, the help screen and the README all read it.
public struct Keymap: Sendable {
    public private(set) var bindings: [(chord: KeyChord, action: Action)]

    public static let defaults: [(String, Action)] = [
        ("h", .left), ("left", .left), ("l", .right), ("right", .right),
        ("k", .up), ("up", .up), ("j", .down), ("down", .down),
        ("g", .first), ("home", .first), ("G", .last), ("end", .last),
        ("space", .lift), ("enter", .drop), ("esc", .cancel), ("v", .toggleMark),
        ("H", .moveLeft), ("L", .moveRight), ("K", .moveUp), ("J", .moveDown),
        ("[", .previousPage), ("]", .nextPage), ("pageup", .previousPage), ("pagedown", .nextPage),
        ("a", .addBelow), ("O", .addTop), ("e", .editTitle), ("d", .deleteCard), ("x", .toggleDone),
        ("E", .editExternal), ("t", .toggleSubtask), ("@", .setDue), ("#", .setTags),
        ("A", .addColumn), ("R", .renameColumn), ("D", .deleteColumn),
        ("<", .moveColumnLeft), (">", .moveColumnRight), ("W", .setLimit), ("F", .setAccepts),
        ("u", .undo), ("ctrl-r", .redo), ("/", .filter), ("?", .help),
        ("q", .quit), ("ctrl-c", .quit), ("ctrl-z", .suspend), ("z", .toggleCompact),
        ("M", .metrics), ("^", .messages),
        ("ctrl-n", .nextBoard), ("ctrl-p", .previousBoard), ("m", .moveToBoard),
        ("{", .moveLaneUp), ("}", .moveLaneDown), ("S", .toggleLanes), ("Z", .collapseLane),
    ]

    public init() {
        bindings = Keymap.defaults.map { (KeyChord(name: $0.0)!, $0.1) }
    }

    /// The action bound to a key; uppercase letters match with or without a reported shift.
    public func action(for key: Key, _ modifiers: Modifiers) -> Action? {
        var mods = modifiers
        if case .char(let c) = key, c.isUppercase || !c.isLetter { mods.remove(.shift) }
        let chord = KeyChord(key, mods)
        return bindings.last { $0.chord == chord }?.action
    }

    /// Binds a key to an action, replacing what the key did before.
    public mutating func bind(_ chord: KeyChord, to action: Action) {
        bindings.removeAll { $0.chord == chord }
        bindings.append((chord, action))
    }

    /// Removes every binding of a key.
    public mutating func unbind(_ chord: KeyChord) {
        bindings.removeAll { $0.chord == chord }
    }

    /// The keys bound to an action, in table order.
    public func keys(for action: Action) -> [KeyChord] {
        bindings.filter { $0.action == action }.map(\.chord)
    }

    /// Reads a config file: lines `bind KEY ACTION`, `unbind KEY`, blank lines and `#` comments.
    public mutating func apply(config text: String, file: String) throws(ConfigError) {
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: " \t\r")
            if line.isEmpty || line.hasPrefix("#") { continue }
            try apply(line: line, number: n + 1, file: file)
        }
    }

    /// One non-blank, non-comment config line: `bind KEY ACTION` or `unbind KEY`.
    mutating func apply(line: String, number: Int, file: String) throws(ConfigError) {
        let n = number - 1
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        switch (words.first, words.count) {
        case ("bind", 3):
            guard let chord = KeyChord(name: words[1]) else {
                throw ConfigError(file: file, line: n + 1, message: "unknown key \"\(words[1])\"")
            }
            guard let action = Action(rawValue: words[2]) else {
                throw ConfigError(
                    file: file, line: n + 1, message: "unknown action \"\(words[2])\" (lanes keys lists the actions)")
            }
            bind(chord, to: action)
        case ("unbind", 2):
            guard let chord = KeyChord(name: words[1]) else {
                throw ConfigError(file: file, line: n + 1, message: "unknown key \"\(words[1])\"")
            }
            unbind(chord)
        default:
            throw ConfigError(
                file: file, line: n + 1,
                message: "expected \"bind KEY ACTION\", \"unbind KEY\" or \"set view compact|cards\", found \"\(line)\""
            )
        }
    }
}

/// A line of the config file that could not be used.
public struct ConfigError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var line: Int
    public var message: String
    public var description: String { "\(file):\(line): \(message)" }

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
