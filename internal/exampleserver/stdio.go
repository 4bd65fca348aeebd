package exampleserver

import (
	"context"
	"errors"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// RunStdio serves one session of a fresh example server over newline-
// delimited JSON-RPC on in and out, as the stdio transport specifies, until
// the client closes in (a clean end: nil) or ctx is done. Nothing but MCP
// messages is written to out.
func RunStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	filter := newCancelFilter()
	transport := &mcp.IOTransport{
		Reader: io.NopCloser(filter.watch(in)),
		Writer: nopWriteCloser{filter.guard(out)},
	}
	err := New().Run(ctx, transport)
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// nopWriteCloser keeps the SDK from closing the caller's writer: out
// belongs to whoever passed it in.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
