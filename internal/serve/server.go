// Package serve is mcpverdict serve: a local web page over folders of
// recordings, which lists the sessions with their verdicts, shows each as
// report.html does, searches them and compares two. It binds loopback
// only, answers only requests that carry its random token and a loopback
// Host, reads the folders once and writes nothing.
package serve

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mcpverdict/mcpverdict/reporters"
)

// Server serves the sessions found in the folders.
type Server struct {
	Sessions []*Session
	// Token is the secret first path segment every page lives under, so
	// that another local user or a web page cannot read the recordings.
	Token string
}

// New serves sessions under a fresh random token.
func New(sessions []*Session) (*Server, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	return &Server{Sessions: sessions, Token: hex.EncodeToString(b)}, nil
}

//go:embed page.css
var pageStyle string

// pagePolicy lets the list, search and diff pages run nothing and load
// nothing; only their style, named by its hash, applies.
var pagePolicy = func() string {
	sum := sha256.Sum256([]byte(pageStyle))
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; base-uri 'none'; form-action 'self'"
}()

// Loopback says whether addr (host:port) names a loopback address, the
// only kind serve listens on.
func Loopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %v", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("address %q is not a loopback address: serve answers this machine only (127.0.0.1:PORT or [::1]:PORT)", addr)
	}
	return nil
}

// Listen binds addr, which must be loopback.
func Listen(addr string) (net.Listener, error) {
	if err := Loopback(addr); err != nil {
		return nil, err
	}
	return net.Listen("tcp", addr)
}

// URL is the page to open, token included.
func (s *Server) URL(l net.Listener) string {
	return "http://" + l.Addr().String() + "/" + s.Token + "/"
}

// Serve answers on l until ctx ends.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Handler answers GET requests under /TOKEN/ whose Host is loopback; every
// other request is 404, so the token cannot be guessed one byte at a time.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.index)
	mux.HandleFunc("GET /session/{n}", s.session)
	mux.HandleFunc("GET /search", s.search)
	mux.HandleFunc("GET /diff", s.diff)
	prefix := "/" + s.Token
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := r.URL.Path
		if len(path) < len(prefix) || subtle.ConstantTimeCompare([]byte(path[:len(prefix)]), []byte(prefix)) != 1 ||
			!loopbackHost(r.Host) {
			http.NotFound(w, r)
			return
		}
		rest := path[len(prefix):]
		if rest != "" && rest[0] != '/' {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("Cache-Control", "no-store")
		r2 := r.Clone(r.Context())
		r2.URL.Path = rest
		if r2.URL.Path == "" {
			r2.URL.Path = "/"
		}
		mux.ServeHTTP(w, r2)
	})
}

// loopbackHost refuses a request whose Host names another machine: a page
// elsewhere that rebinds its name to 127.0.0.1 still sends its own name.
func loopbackHost(host string) bool {
	h, _, err := net.SplitHostPort(host)
	if err != nil {
		h = host
	}
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && ip.IsLoopback()
}

func (s *Server) sessionAt(v string) (*Session, int, bool) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n >= len(s.Sessions) || s.Sessions[n].Report == nil {
		return nil, 0, false
	}
	return s.Sessions[n], n, true
}

func (s *Server) session(w http.ResponseWriter, r *http.Request) {
	sess, _, ok := s.sessionAt(r.PathValue("n"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	var buf bytes.Buffer
	if err := (reporters.HTML{}).Write(&buf, sess.Document(), reporters.Options{}); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Security-Policy", reporters.HTMLPolicy)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(buf.Bytes())
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	s.page(w, "index", map[string]any{"Sessions": s.Sessions})
}

func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query().Get("q")
	s.page(w, "search", map[string]any{"Q": q, "Results": Search(s.Sessions, q), "Sessions": s.Sessions})
}

func (s *Server) diff(w http.ResponseWriter, r *http.Request) {
	a, ia, okA := s.sessionAt(r.URL.Query().Get("a"))
	b, ib, okB := s.sessionAt(r.URL.Query().Get("b"))
	if !okA || !okB {
		http.Error(w, "choose two readable sessions to compare", http.StatusBadRequest)
		return
	}
	d := Compare(a, b)
	rows, cut := d.Rows, 0
	if len(rows) > maxDiffRows {
		rows, cut = rows[:maxDiffRows], len(rows)-maxDiffRows
	}
	s.page(w, "diff", map[string]any{"D": d, "Rows": rows, "Cut": cut, "IA": ia, "IB": ib, "Sessions": s.Sessions})
}

// maxDiffRows caps the rows of one diff page; the page counts the rest.
const maxDiffRows = 2000

func (s *Server) page(w http.ResponseWriter, name string, data map[string]any) {
	data["Style"] = template.CSS(pageStyle)
	for k, v := range map[string]any{"Up": false, "Q": "", "IA": -1, "IB": -1} {
		if _, ok := data[k]; !ok {
			data[k] = v
		}
	}
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, data); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Security-Policy", pagePolicy)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(buf.Bytes())
}
