package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/evidence/canon"
	"github.com/mcpverdict/mcpverdict/internal/evidence/outfile"
	"github.com/mcpverdict/mcpverdict/internal/ledger"
)

// mevBlock is a block of an mcp-evidence-validator ledger, its members in
// that tool's order.
type mevBlock struct {
	Index    int    `json:"index"`
	PrevHash string `json:"prev_hash"`
	Type     string `json:"type"`
	Record   any    `json:"record"`
	Hash     string `json:"hash"`
}

// writeMEV writes n blocks as that tool writes a ledger: one document
// indented by two spaces, non-ASCII escaped, each block's hash over the
// previous hash and the canonical {"record","type"}.
func writeMEV(n int, path string) error {
	f, err := outfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	w := bufio.NewWriterSize(f, 1<<20)
	start := time.Now()
	io.WriteString(w, "{\n  \"ledger\": \"mcp-evidence-validator\",\n  \"version\": \"0.3\",\n  \"blocks\": [")
	prev := ledger.Genesis
	for i := range n {
		typ, rec := record(i)
		sum, err := mevHash(prev, typ, rec)
		if err != nil {
			return err
		}
		b, err := json.MarshalIndent(mevBlock{Index: i, PrevHash: prev, Type: typ, Record: rec, Hash: sum}, "    ", "  ")
		if err != nil {
			return err
		}
		if i > 0 {
			w.WriteString(",")
		}
		w.WriteString("\n    ")
		w.WriteString(asciiOnly(string(b)))
		prev = sum
	}
	io.WriteString(w, "\n  ]\n}\n")
	if err := w.Flush(); err != nil {
		return err
	}
	elapsed := time.Since(start)
	if err := f.Commit(); err != nil {
		return err
	}
	fmt.Printf("%s %d %.3f\n", prev, n, elapsed.Seconds())
	return nil
}

func mevHash(prev, typ string, rec any) (string, error) {
	raw, err := json.Marshal(map[string]any{"record": rec, "type": typ})
	if err != nil {
		return "", err
	}
	v, err := canon.Decode(raw)
	if err != nil {
		return "", err
	}
	body, err := canon.Marshal(v)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	io.WriteString(h, prev)
	h.Write(body)
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// asciiOnly escapes non-ASCII characters as \uXXXX, as Python's json does.
func asciiOnly(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}
