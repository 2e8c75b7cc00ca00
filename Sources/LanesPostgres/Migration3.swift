extension Schema {
    /// A lane's layout in its board file: what a file's export writes back and an import keeps.
    ///
    /// Upgrades a database of migration 2 in place (every row kept; old columns get NULLs, which
    /// read as the file's defaults). Three content columns of `lanes.columns`, written by members
    /// like the column's title (INSERT and UPDATE to PUBLIC, row security unchanged):
    /// - `heading`: the lane's heading marker as the file writes it (`## `, `# `, `### `);
    /// - `card_style`: how the lane writes a new card's marker (`- [ ] `, `* [ ] `, `1. `);
    /// - `after_list`: Obsidian lines from where Markdown ends the lane's list to the next lane,
    ///   kept verbatim (docs/FORMATS.md): lines the plugin does not show as cards, never dropped.
    static let migration3 = """
        ALTER TABLE lanes.columns ADD COLUMN heading text, ADD COLUMN card_style text, ADD COLUMN after_list text;
        GRANT INSERT (heading, card_style, after_list), UPDATE (heading, card_style, after_list) ON lanes.columns TO PUBLIC;
        """
}
