package actiontest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The backend ids the simulated runtime token is scoped to.
const (
	RunBackendID = "ce7f54c7-61c7-4aae-887f-30da475f5f1a"
	JobBackendID = "ca395085-040a-526b-2ce8-bdc85f692774"
)

// ArtifactService stands in for the runner's artifact service (the Twirp
// ArtifactService at ACTIONS_RESULTS_URL) and for the blob storage its
// signed URLs point at. It checks what the real one checks: the bearer
// token, backend ids that match the token's scope, version 4, a name used
// once, a blob PUT as a block blob, and a finalize whose size and SHA-256
// are those of the uploaded bytes.
type ArtifactService struct {
	URL   string
	Token string

	mu        sync.Mutex
	artifacts map[string]*Artifact
	bad       []string
}

// Artifact is one artifact the stand-in holds.
type Artifact struct {
	ID        int
	Name      string
	Zip       []byte
	Finalized bool
}

const twirpPrefix = "/twirp/github.actions.results.api.v1.ArtifactService/"

// NewArtifactService starts the stand-in.
func NewArtifactService(t testing.TB) *ArtifactService {
	s := &ArtifactService{artifacts: map[string]*Artifact{}, Token: runtimeToken()}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL + "/"
	return s
}

// runtimeToken is a JWT-shaped token whose scp claim carries the backend
// ids, as ACTIONS_RUNTIME_TOKEN does (the signature is not checked here).
func runtimeToken() string {
	enc := base64.RawURLEncoding
	claims, _ := json.Marshal(map[string]string{"scp": "Actions.ExampleScope Actions.Results:" + RunBackendID + ":" + JobBackendID})
	return enc.EncodeToString([]byte(`{"alg":"RS256","typ":"JWT"}`)) + "." + enc.EncodeToString(claims) + ".c2lnbmF0dXJl"
}

// UseArtifactService gives the runner the variables that reach it.
func (r *Runner) UseArtifactService(s *ArtifactService) {
	r.Set("ACTIONS_RUNTIME_TOKEN", s.Token)
	r.Set("ACTIONS_RESULTS_URL", s.URL)
}

// Artifact returns the artifact of that name, if any.
func (s *ArtifactService) Artifact(name string) *Artifact {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.artifacts[name]
}

// Names lists the artifacts held.
func (s *ArtifactService) Names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for n := range s.artifacts {
		out = append(out, n)
	}
	return out
}

// Rejected lists why requests were refused.
func (s *ArtifactService) Rejected() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bad...)
}

func (s *ArtifactService) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPut && strings.HasPrefix(r.URL.Path, "/blob/"):
		s.putBlob(w, r)
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, twirpPrefix):
		if r.Header.Get("Authorization") != "Bearer "+s.Token {
			s.twirpError(w, http.StatusUnauthorized, "unauthenticated", "bad token")
			return
		}
		var req map[string]any
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			s.twirpError(w, http.StatusBadRequest, "malformed", err.Error())
			return
		}
		if req["workflow_run_backend_id"] != RunBackendID || req["workflow_job_run_backend_id"] != JobBackendID {
			s.twirpError(w, http.StatusBadRequest, "invalid_argument", "backend ids do not match the token")
			return
		}
		switch strings.TrimPrefix(r.URL.Path, twirpPrefix) {
		case "CreateArtifact":
			s.create(w, req)
		case "FinalizeArtifact":
			s.finalize(w, req)
		default:
			s.twirpError(w, http.StatusNotFound, "bad_route", r.URL.Path)
		}
	default:
		s.twirpError(w, http.StatusNotFound, "bad_route", r.Method+" "+r.URL.Path)
	}
}

func (s *ArtifactService) create(w http.ResponseWriter, req map[string]any) {
	name, _ := req["name"].(string)
	if v, _ := req["version"].(float64); v != 4 || name == "" || strings.ContainsAny(name, "\":<>|*?\\/\r\n") {
		s.twirpError(w, http.StatusBadRequest, "invalid_argument", "version 4 and a valid name are required")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.artifacts[name] != nil {
		s.bad = append(s.bad, "duplicate "+name)
		writeJSONStatus(w, http.StatusConflict, map[string]string{"code": "already_exists", "msg": "an artifact with this name already exists on the workflow run"})
		return
	}
	s.artifacts[name] = &Artifact{ID: 1000 + len(s.artifacts), Name: name}
	writeJSONStatus(w, http.StatusOK, map[string]any{"ok": true, "signed_upload_url": strings.TrimSuffix(s.URL, "/") + "/blob/" + name + "?sig=secret-signature"})
}

func (s *ArtifactService) putBlob(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/blob/")
	if r.URL.Query().Get("sig") != "secret-signature" || r.Header.Get("x-ms-blob-type") != "BlockBlob" {
		s.twirpError(w, http.StatusForbidden, "AuthenticationFailed", "unsigned or not a block blob")
		return
	}
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.artifacts[name]
	if a == nil || a.Finalized {
		s.bad = append(s.bad, "blob for unknown artifact "+name)
		w.WriteHeader(http.StatusNotFound)
		return
	}
	a.Zip = body
	w.WriteHeader(http.StatusCreated)
}

func (s *ArtifactService) finalize(w http.ResponseWriter, req map[string]any) {
	name, _ := req["name"].(string)
	size, _ := req["size"].(string)
	hash, _ := req["hash"].(string)
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.artifacts[name]
	if a == nil || a.Zip == nil {
		s.twirpError(w, http.StatusNotFound, "not_found", "no uploaded artifact "+name)
		return
	}
	sum := sha256.Sum256(a.Zip)
	if size != strconv.Itoa(len(a.Zip)) || hash != "sha256:"+hex.EncodeToString(sum[:]) {
		s.bad = append(s.bad, "finalize with size "+size+" hash "+hash)
		writeJSONStatus(w, http.StatusBadRequest, map[string]string{"code": "invalid_argument", "msg": "size or hash does not match the upload"})
		return
	}
	a.Finalized = true
	writeJSONStatus(w, http.StatusOK, map[string]any{"ok": true, "artifact_id": strconv.Itoa(a.ID)})
}

func (s *ArtifactService) twirpError(w http.ResponseWriter, status int, code, msg string) {
	s.mu.Lock()
	s.bad = append(s.bad, code+": "+msg)
	s.mu.Unlock()
	writeJSONStatus(w, status, map[string]string{"code": code, "msg": msg})
}
