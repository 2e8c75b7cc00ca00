import DragKit
import LanesCore

/// The board layer of the last frame and the ghost's wrapped face, kept between frames.
public final class FrameCache {
    var key: BoardView.LayerKey?
    var layer = CellBuffer(width: 0, height: 0)
    var ghost: (card: Card, width: Int, face: CardFace)?

    public init() {}
}
