import ArgumentParser
import Foundation
import LanesTerminal

/// `lanes keys`: every action the config file accepts, with its default keys.
struct Keys: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every key action: the names \"bind KEY ACTION\" in the config file accepts.",
        discussion: """
            One line per action: ACTION<TAB>DEFAULT KEYS<TAB>WHAT IT DOES (keys separated by spaces; none bound by default: -). The config file is $XDG_CONFIG_HOME/lanes/config (default ~/.config/lanes/config); its lines are "bind KEY ACTION", "unbind KEY" and "set view compact" or "set view cards". KEY is a character (x, X, ?), a name (enter, esc, space, tab, backspace, up, down, left, right, home, end, pageup, pagedown, insert, delete, f1 to f12) or one with ctrl-, alt- or shift- before it.
            """
    )

    @OptionGroup var output: FormatOptions

    func run() throws {
        if output.isJSON { return JSONOutput.write(JSONOutput.keys(Keymap())) }
        FileHandle.standardOutput.write(Data(Keys.listing(Keymap()).utf8))
    }

    static func listing(_ keymap: Keymap) -> String {
        Action.allCases.map { action in
            let keys = keymap.keys(for: action).map(\.description)
            return "\(action.rawValue)\t\(keys.isEmpty ? "-" : keys.joined(separator: " "))\t\(action.summary)\n"
        }.joined()
    }
}
