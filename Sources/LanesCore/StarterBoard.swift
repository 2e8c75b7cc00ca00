/// The board a new file starts from; the same text as `Resources/starter.md` (a test keeps them equal).
public enum StarterBoard {
    public static let markdown = """
        ## To do

        - Drag me to “Doing” with the mouse
            > Press on a card, drag it across columns, release where it belongs.
            > The green line shows exactly where it will land.
        - Or lift me with space, move with the arrow keys, drop with enter
            * [ ] space lifts the selected card
            * [ ] arrows move it, esc cancels
        - Press ? to see every key
        - Press a to add a card below this one
        - 日本語のカードも大丈夫 (wide characters line up)

        ## Doing

        - Edit a title with e, delete with d, undo with u
            @ 2026-12-31

        ## Done

        - Open Lanes
            * [x] make run

        """
}
