package exampleserver

import (
	"context"
	"errors"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// RunStdio serves one session of a fresh example server over newline-
// delimited JSON-RPC on in and out, as the stdio transport specifies, until
// the client closes in or ctx is done; both are a clean end (nil). Nothing
// but MCP messages is written to out.
func RunStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	guard := newStdioGuard(in, out)
	transport := &mcp.IOTransport{Reader: io.NopCloser(guard), Writer: nopWriteCloser{guard}}
	err := New().Run(ctx, transport)
	if errors.Is(err, io.EOF) || (ctx.Err() != nil && errors.Is(err, ctx.Err())) {
		return nil
	}
	return err
}

// nopWriteCloser keeps the SDK from closing the caller's writer: out
// belongs to whoever passed it in.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
