// Package ledger writes and verifies mcpverdict's evidence ledger: an
// append-only SHA-256 hash chain, one block a line (JSON Lines).
//
// Each line is one block in canonical JSON (see package canon), its keys in
// sorted order:
//
//	{"hash":"sha256:…","index":N,"prev_hash":"sha256:…","record":{…},"type":"…"}
//
// The block's hash is SHA-256 over the previous block's hash (as its
// "sha256:…" text; the first block's is Genesis) followed by the canonical
// form of the block without its "hash" member, that is index, prev_hash,
// record and type. Because a line is canonical, that form is the line with
// its hash member cut out, and verifying hashes the bytes as they lie: one
// pass, memory flat in the ledger's length.
//
// The head, the last block's hash, is what anyone holding the file cannot
// forge: verify replays the chain and compares the head it reaches with one
// kept elsewhere (printed, signed, committed). A chain read on its own proves
// nothing to anyone but its writer.
//
// Verify also reads ledgers of mcp-evidence-validator (format 0.2 and 0.3):
// one JSON document whose blocks hash the previous hash followed by the
// canonical {"record":…,"type":…}.
package ledger

// Genesis is the previous hash of the first block.
const Genesis = "sha256:0000000000000000000000000000000000000000000000000000000000000000"

// Format names this ledger format in the provenance block.
const (
	FormatName    = "mcpverdict-ledger"
	FormatVersion = "1"
)
