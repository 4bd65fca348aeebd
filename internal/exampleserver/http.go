package exampleserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// EndpointPath is the one MCP endpoint of the HTTP server.
const EndpointPath = "/mcp"

// Timeouts of the HTTP server: idle sessions are let go after an hour, and
// on shutdown open streams get a moment to finish.
const (
	sessionTimeout  = time.Hour
	shutdownTimeout = 2 * time.Second
)

// ServeHTTP serves one example server over streamable HTTP on addr (for
// example 127.0.0.1:8080; port 0 picks a free one) at EndpointPath, until
// ctx is done. ready, if not nil, is called with the endpoint's URL once
// the server accepts connections. All clients share the one server, and so
// its notes.
func ServeHTTP(ctx context.Context, addr string, ready func(url string)) error {
	return ServeHTTPWith(ctx, addr, HTTPOptions{}, ready)
}

// HTTPOptions shape the HTTP server.
type HTTPOptions struct {
	// Auth guards the endpoint with bearer tokens issued by a loopback
	// authorization-server stand-in, and serves the protected resource
	// metadata that names it.
	Auth bool
	// Faults are the authorization mistakes to make (with Auth).
	Faults AuthFaults
	// IssuerReady, if not nil, is called with the stand-in's URL.
	IssuerReady func(url string)
}

// ServeHTTPWith is ServeHTTP with options.
func ServeHTTPWith(ctx context.Context, addr string, opts HTTPOptions, ready func(url string)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %q: %w", addr, err)
	}
	handler := HTTPHandler(New())
	servers := []*http.Server{{Handler: handler, ReadHeaderTimeout: 10 * time.Second}}
	listeners := []net.Listener{ln}
	if opts.Auth {
		issuerLn, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			ln.Close()
			return fmt.Errorf("cannot listen on loopback for the authorization server: %w", err)
		}
		rs := newResourceServer(endpointURL(ln.Addr()), "http://"+issuerLn.Addr().String(), opts.Faults)
		servers[0].Handler = rs.handler(handler)
		servers = append(servers, &http.Server{Handler: rs.issuer.handler(), ReadHeaderTimeout: 10 * time.Second})
		listeners = append(listeners, issuerLn)
		if opts.IssuerReady != nil {
			opts.IssuerReady(rs.issuer.issuer)
		}
	}
	if ready != nil {
		ready(endpointURL(ln.Addr()))
	}
	return serveUntilDone(ctx, servers, listeners)
}

// serveUntilDone serves each server on its listener until ctx is done or
// one fails.
func serveUntilDone(ctx context.Context, servers []*http.Server, listeners []net.Listener) error {
	errc := make(chan error, len(servers))
	for i, srv := range servers {
		go func() { errc <- srv.Serve(listeners[i]) }()
	}
	var err error
	select {
	case err = <-errc:
	case <-ctx.Done():
	}
	for _, srv := range servers {
		shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		if srv.Shutdown(shutdownCtx) != nil {
			// Streams still open (a client's GET stream never goes
			// idle): cut them.
			srv.Close()
		}
		cancel()
	}
	return err
}

// endpointURL is the URL a client should use: an unspecified listen address
// (0.0.0.0, ::) is reachable on loopback, which is what the URL names.
func endpointURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + EndpointPath
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + EndpointPath
}

// HTTPHandler serves s at EndpointPath. Requests of the 2026-07-28 protocol
// (which name it in MCP-Protocol-Version or in their _meta) go to the SDK's
// stateless handler,
// the only one that accepts them; all others to its stateful handler, which
// keeps the sessions 2025-11-25 and earlier rely on (log level,
// subscriptions, the GET stream). Every request's Origin is checked first.
func HTTPHandler(s *mcp.Server) http.Handler {
	serve := func(*http.Request) *mcp.Server { return s }
	stateful := mcp.NewStreamableHTTPHandler(serve, &mcp.StreamableHTTPOptions{SessionTimeout: sessionTimeout})
	stateless := mcp.NewStreamableHTTPHandler(serve, &mcp.StreamableHTTPOptions{Stateless: true})
	mux := http.NewServeMux()
	mux.Handle(EndpointPath, checkOrigin(frontChecks(stateless, stateful)))
	return mux
}

// checkOrigin refuses, with 403, a request whose Origin header is present
// but neither the server's own origin nor a loopback one, as the transport
// specification requires against DNS rebinding. (The SDK checks the Host
// header of loopback connections, but not Origin.) Browsers' same-origin
// requests and local tools such as the MCP Inspector pass.
func checkOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" || allowedOrigin(origin, r.Host) {
			next.ServeHTTP(w, r)
			return
		}
		refuseOrigin(w, origin)
	})
}

// refuseOrigin answers 403 with, as the specification allows, a JSON-RPC
// error response that has no id.
func refuseOrigin(w http.ResponseWriter, origin string) {
	body, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"error": map[string]any{
			"code":    jsonrpc.CodeInvalidRequest,
			"message": fmt.Sprintf("forbidden: Origin %q is neither this server's nor a loopback origin", origin),
		},
	})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusForbidden)
	w.Write(append(body, '\n'))
}

func allowedOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return u.Host == host || isLoopbackHost(u.Hostname())
}

func isLoopbackHost(name string) bool {
	if name == "localhost" {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}
