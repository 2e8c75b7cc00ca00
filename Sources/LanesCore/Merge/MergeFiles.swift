import DragKit

extension BoardFileInfo {
    /// This info (theirs: the file as it is on disk) made to fit a merge result, so that writing
    /// the result with it rewrites only the lines of what the merge changed: card spacing and
    /// list markers follow theirs' cards to their identities in the result, column spacing
    /// follows theirs' columns to their (possibly renamed) place in the result.
    public func remapped(through result: BoardMerge.Result, theirs: Board) -> BoardFileInfo {
        var info = self
        info.blankLinesBeforeCard = [:]
        for (id, gap) in blankLinesBeforeCard {
            if let new = result.theirsIdentity[id] { info.blankLinesBeforeCard[new] = gap }
        }
        info.cardMarkers = [:]
        for (id, marker) in cardMarkers {
            if let new = result.theirsIdentity[id] { info.cardMarkers[new] = marker }
        }
        info.cardJoinedToTail = cardJoinedToTail.flatMap { result.theirsIdentity[$0] }
        if !columnSpacing.isEmpty {
            let theirsKeys = ColumnKey.keys(of: theirs.columns)
            let resultKeys = ColumnKey.keys(of: result.board.columns)
            info.columnSpacing = [:]
            for (j, key) in theirsKeys.enumerated() {
                if var spacing = columnSpacing[key], let r = result.theirsColumns[j] {
                    spacing.cardAboveAfterList = spacing.cardAboveAfterList.flatMap { result.theirsIdentity[$0] }
                    info.columnSpacing[resultKeys[r]] = spacing
                }
            }
        }
        return info
    }

    /// This info, written for `old`, made to fit `new`, a later version of the same board with the
    /// same card identities (the app's board after a rename): each column's spacing follows the
    /// column as matched by `BoardMerge` (title, then the cards it holds, then its index), so a
    /// renamed column keeps its blank lines. Card spacing and markers follow identities already.
    public func following(_ old: Board, to new: Board) -> BoardFileInfo {
        guard !columnSpacing.isEmpty else { return self }
        let match = BoardMatcher.match(base: FlatBoard(old), side: FlatBoard(new), by: .identity)
        let oldKeys = ColumnKey.keys(of: old.columns), newKeys = ColumnKey.keys(of: new.columns)
        var info = self
        info.columnSpacing = [:]
        for (j, i) in match.columnToBase.enumerated() {
            if let i, let spacing = columnSpacing[oldKeys[i]] { info.columnSpacing[newKeys[j]] = spacing }
        }
        return info
    }

    /// Three-way merge of the parts of a file outside its columns (frontmatter, settings, archive,
    /// line endings, usual spacing): a part ours changed and theirs did not comes from ours; all else from `self` (theirs).
    func taking(changesOf ours: BoardFileInfo, since base: BoardFileInfo) -> BoardFileInfo {
        var info = self
        func pick<T: Equatable>(_ path: WritableKeyPath<BoardFileInfo, T>) {
            if ours[keyPath: path] != base[keyPath: path] && self[keyPath: path] == base[keyPath: path] {
                info[keyPath: path] = ours[keyPath: path]
            }
        }
        pick(\.frontmatter); pick(\.preamble); pick(\.archive); pick(\.settings); pick(\.epilogue)
        pick(\.lineEnding); pick(\.hasByteOrderMark); pick(\.endsWithNewline)
        pick(\.layout.blankLinesAfterHeading); pick(\.layout.blankLinesBetweenCards)
        pick(\.layout.blankLinesBetweenColumns); pick(\.layout.blankLinesAfterColumns)
        return info
    }
}

extension BoardMerge {
    /// Merges a board file that changed on disk with our board: what the file store and `lanes merge` both call.
    ///
    /// - `base`: the board and file info both sides started from (the file store: what it last read
    ///   or wrote; git: the merge base), or nil when there is none (every card counts as added by its side).
    /// - `ours`: our board; `oursMatching` says whether it shares card identities with `base`
    ///   (the app's board does; a parsed file does not). `oursInfo`, when ours is a file too, lets
    ///   changes ours made outside the columns (frontmatter, settings) through.
    /// - `theirs`: the file's bytes as they are now; parsed here, so its card identities mean nothing.
    ///   `theirsRules` are the accept rules that go with it (nil: theirs did not change base's rules).
    ///
    /// The text is written with theirs' file info remapped through the result, so the lines of
    /// cards and columns nobody changed come out byte for byte as they are on disk. That info is
    /// returned with it: with `result.board` it is the base of the next merge.
    public static func mergeFiles(
        base: (board: Board, info: BoardFileInfo)?,
        ours: Board, oursInfo: BoardFileInfo? = nil, oursMatching: Matching = .identity,
        theirs bytes: [UInt8], theirsFile: String,
        theirsRules: AcceptRules? = nil
    ) throws(ParseError) -> (text: String, info: BoardFileInfo, result: Result) {
        var (theirsBoard, theirsInfo) = try BoardFormat.parse(bytes, file: theirsFile)
        theirsBoard.acceptRules = theirsRules ?? base?.board.acceptRules ?? ours.acceptRules
        let baseBoard =
            base?.board
            ?? {
                var empty = Board()
                empty.acceptRules = theirsBoard.acceptRules
                return empty
            }()
        let result = merge(base: baseBoard, ours: ours, theirs: theirsBoard, matching: (oursMatching, .content))
        var info = theirsInfo.remapped(through: result, theirs: theirsBoard)
        if let oursInfo {
            if let baseInfo = base?.info { info = info.taking(changesOf: oursInfo, since: baseInfo) }
            // Spacing of cards theirs does not have comes from ours' file.
            let fromTheirs = Set(result.theirsIdentity.values)
            for column in result.board.columns {
                for card in column.cards where !fromTheirs.contains(card.id) {
                    if let gap = oursInfo.blankLinesBeforeCard[card.id] { info.blankLinesBeforeCard[card.id] = gap }
                    if let marker = oursInfo.cardMarkers[card.id] { info.cardMarkers[card.id] = marker }
                }
            }
        }
        return (BoardFormat.serialize(result.board, info: info), info, result)
    }
}
