package capture

import (
	"crypto/tls"
	"errors"
	"net/http"
	"net/url"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// ProxyConfig configures the streamable-HTTP recording proxy.
type ProxyConfig struct {
	// Upstream is the MCP endpoint of the real server (http or https).
	Upstream *url.URL
	// Recorder receives every event of every session through the proxy.
	Recorder trace.Recorder
	// TLS configures connections to an https upstream; nil uses the system roots.
	TLS *tls.Config
}

// Proxy is a reverse proxy that records what passes through it.
type Proxy struct{ cfg ProxyConfig }

// NewProxy returns a proxy for cfg.Upstream.
func NewProxy(cfg ProxyConfig) (*Proxy, error) {
	return nil, errors.New("capture http: not implemented")
}

// ServeHTTP forwards one client request upstream and its response back.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "not implemented", http.StatusNotImplemented)
}

// Close records the end of every session still open.
func (p *Proxy) Close() error { return nil }
