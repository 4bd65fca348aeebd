package ledger

import (
	"crypto/sha256"
	"fmt"

	"github.com/mcpverdict/mcpverdict/internal/evidence/canon"
)

// ForeignName is the "ledger" field of an mcp-evidence-validator ledger.
const ForeignName = "mcp-evidence-validator"

// foreignVersions are the format versions of that tool this build reads;
// both hash blocks the same way.
var foreignVersions = map[string]bool{"0.2": true, "0.3": true}

// verifyMEV checks an mcp-evidence-validator ledger: one JSON document
// {"ledger","version","blocks"}, each block hashing the previous hash
// followed by the canonical {"record":…,"type":…}.
func verifyMEV(doc []byte, res *Result) {
	v, err := canon.Decode(doc)
	if err != nil {
		res.Format = ForeignName
		res.problem("not a ledger: %v", err)
		return
	}
	blocks, ok := foreignHeader(v, res)
	if !ok {
		return
	}
	c := &chain{res: res, hash: sha256.New()}
	for pos, item := range blocks.Items {
		b, problem := blockFields(item, "hash", "index", "prev_hash", "record", "type")
		if problem != "" {
			res.problem("block at position %d: %s", pos, problem)
			res.Head = ""
			res.Blocks++
			continue
		}
		body := canon.Value{Kind: canon.Object, Members: []canon.Member{
			{Key: "record", Value: mustGet(item, "record")},
			{Key: "type", Value: canon.StringValue(string(b.typ))},
		}}
		content, err := canon.Marshal(body)
		if err != nil {
			res.problem("block at position %d: %v", pos, err)
		}
		c.block(&b, content)
		collectRecipes(res, b)
	}
}

func foreignHeader(v canon.Value, res *Result) (canon.Value, bool) {
	name, _ := v.Get("ledger")
	version, _ := v.Get("version")
	res.Format = fmt.Sprintf("%s %s", ForeignName, version.Text)
	if name.Kind != canon.String || name.Text != ForeignName {
		res.problem("not a ledger this build reads: $.ledger is %q, expected %q", name.Text, ForeignName)
		return canon.Value{}, false
	}
	if !foreignVersions[version.Text] {
		res.problem("$.version %q: this build reads %s ledgers of format 0.2 and 0.3", version.Text, ForeignName)
		return canon.Value{}, false
	}
	blocks, ok := v.Get("blocks")
	if !ok || blocks.Kind != canon.Array {
		res.problem("$.blocks: missing or not an array")
		return canon.Value{}, false
	}
	return blocks, true
}

func mustGet(v canon.Value, key string) canon.Value {
	m, _ := v.Get(key)
	return m
}
