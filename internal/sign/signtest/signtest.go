// Package signtest is a Sigstore for tests: a GitHub-shaped OIDC token
// service, Fulcio, Rekor v1 and a timestamp authority, each an httptest
// server speaking the real protocol over keys of its own, and the trusted
// root that trusts them. Only tests import it.
package signtest

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cyberphone/json-canonicalization/go/src/webpki.org/jsoncanonicalizer"
	"github.com/digitorus/timestamp"
	"github.com/go-openapi/runtime"
	"github.com/go-openapi/strfmt"
	"github.com/sigstore/rekor/pkg/generated/models"
	"github.com/sigstore/rekor/pkg/types"
	_ "github.com/sigstore/rekor/pkg/types/dsse/v0.0.1" // the entry kind Rekor logs a DSSE envelope as
	rekorutil "github.com/sigstore/rekor/pkg/util"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/testing/ca"
	"github.com/sigstore/sigstore-go/pkg/tlog"
	"github.com/sigstore/sigstore/pkg/cryptoutils"
	"github.com/sigstore/sigstore/pkg/signature"
)

// The identity the stand-in GitHub token service vouches for.
const (
	// Issuer is the OIDC issuer the certificates name.
	Issuer = "https://token.actions.githubusercontent.com"
	// Identity is the certificate identity: the workflow that signed.
	Identity       = "https://github.com/" + workflowRef
	workflowRef    = "mcpverdict/demo/.github/workflows/ci.yml@refs/heads/main"
	requestToken   = "actions-request-token"
	audience       = "sigstore"
	rekorHost      = "rekor.localhost"
	rekorTreeID    = 1193050959916656506
	oidfIssuerOID  = "1.3.6.1.4.1.57264.1.1"
	oidcIssuerV2ID = "1.3.6.1.4.1.57264.1.8"
)

// Sigstore is a Sigstore in a test: a GitHub-shaped OIDC token service,
// Fulcio, Rekor v1 and a timestamp authority, each an httptest server
// speaking the real protocol, with keys of its own.
type Sigstore struct {
	t                        *testing.T
	oidcKey, rekorKey        *ecdsa.PrivateKey
	rootCert, fulcioCert     *x509.Certificate
	fulcioKey                crypto.Signer
	tsaInter, tsaLeaf        *x509.Certificate
	tsaKey                   *ecdsa.PrivateKey
	OIDC, Fulcio, Rekor, TSA *httptest.Server
	mu                       sync.Mutex
	logIndex                 int64
}

// New starts the stand-ins; they stop when the test ends.
func New(t *testing.T) *Sigstore {
	t.Helper()
	s := &Sigstore{t: t}
	var err error
	var rootKey *ecdsa.PrivateKey
	s.rootCert, rootKey, err = ca.GenerateRootCa()
	must(t, err)
	var interKey *ecdsa.PrivateKey
	s.fulcioCert, interKey, err = ca.GenerateFulcioIntermediate(s.rootCert, rootKey)
	must(t, err)
	s.fulcioKey = interKey
	var tsaInterKey *ecdsa.PrivateKey
	s.tsaInter, tsaInterKey, err = ca.GenerateTSAIntermediate(s.rootCert, rootKey)
	must(t, err)
	s.tsaKey = newKey(t)
	s.tsaLeaf, err = ca.GenerateTSALeafCert(time.Now().Add(-5*time.Minute), s.tsaKey, s.tsaInter, tsaInterKey)
	must(t, err)
	s.oidcKey, s.rekorKey = newKey(t), newKey(t)
	s.OIDC = httptest.NewServer(http.HandlerFunc(s.serveToken))
	s.Fulcio = httptest.NewServer(http.HandlerFunc(s.serveFulcio))
	s.Rekor = httptest.NewServer(http.HandlerFunc(s.serveRekor))
	s.TSA = httptest.NewServer(http.HandlerFunc(s.serveTSA))
	t.Cleanup(func() { s.OIDC.Close(); s.Fulcio.Close(); s.Rekor.Close(); s.TSA.Close() })
	return s
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(t, err)
	return k
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Env is the environment GitHub Actions gives a job with id-token: write.
func (s *Sigstore) Env(key string) string {
	return map[string]string{
		"ACTIONS_ID_TOKEN_REQUEST_URL":   s.OIDC.URL + "/token?api-version=2.0",
		"ACTIONS_ID_TOKEN_REQUEST_TOKEN": requestToken,
	}[key]
}

// serveToken answers as GitHub's token service: GET with the request token
// as bearer and an audience, a JSON {"count","value"} holding an ES256 JWT.
func (s *Sigstore) serveToken(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || r.Header.Get("Authorization") != "bearer "+requestToken || r.URL.Query().Get("api-version") != "2.0" {
		http.Error(w, "bad token request", http.StatusUnauthorized)
		return
	}
	aud := r.URL.Query().Get("audience")
	jwt := s.jwt(map[string]any{
		"iss": Issuer, "aud": aud, "sub": "repo:mcpverdict/demo:ref:refs/heads/main",
		"job_workflow_ref": workflowRef, "repository": "mcpverdict/demo",
		"iat": time.Now().Unix(), "exp": time.Now().Add(5 * time.Minute).Unix(),
	})
	json.NewEncoder(w).Encode(map[string]any{"count": 1, "value": jwt})
}

func (s *Sigstore) jwt(claims map[string]any) string {
	enc := func(v any) string { b, _ := json.Marshal(v); return base64.RawURLEncoding.EncodeToString(b) }
	signed := enc(map[string]string{"alg": "ES256", "typ": "JWT", "kid": "standin"}) + "." + enc(claims)
	sum := sha256.Sum256([]byte(signed))
	r, sv, err := ecdsa.Sign(rand.Reader, s.oidcKey, sum[:])
	s.report(err)
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	sv.FillBytes(sig[32:])
	return signed + "." + base64.RawURLEncoding.EncodeToString(sig)
}

// claims verifies a JWT from the token service and returns its claims.
func (s *Sigstore) claims(token string) (map[string]any, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, fmt.Errorf("not a JWT")
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return nil, fmt.Errorf("bad JWT signature")
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(&s.oidcKey.PublicKey, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return nil, fmt.Errorf("JWT signature does not verify")
	}
	body, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var c map[string]any
	if err := json.Unmarshal(body, &c); err != nil {
		return nil, err
	}
	if c["aud"] != audience || int64(c["exp"].(float64)) < time.Now().Unix() {
		return nil, fmt.Errorf("token not for sigstore, or expired")
	}
	return c, nil
}

// serveFulcio answers POST /api/v2/signingCert: it checks the token and the
// proof of possession (the key's signature over the token's subject), then
// certifies the key for the workflow identity the token names.
func (s *Sigstore) serveFulcio(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/api/v2/signingCert" {
		http.NotFound(w, r)
		return
	}
	claims, err := s.claims(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnauthorized)
		return
	}
	var req struct {
		PublicKeyRequest struct {
			PublicKey         struct{ Content string } `json:"publicKey"`
			ProofOfPossession string                   `json:"proofOfPossession"`
		} `json:"publicKeyRequest"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	pub, err := cryptoutils.UnmarshalPEMToPublicKey([]byte(req.PublicKeyRequest.PublicKey.Content))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	proof, _ := base64.StdEncoding.DecodeString(req.PublicKeyRequest.ProofOfPossession)
	sum := sha256.Sum256([]byte(claims["sub"].(string)))
	if ek, ok := pub.(*ecdsa.PublicKey); !ok || !ecdsa.VerifyASN1(ek, sum[:], proof) {
		http.Error(w, "proof of possession does not verify", http.StatusBadRequest)
		return
	}
	leaf := s.certify(pub, "https://github.com/"+claims["job_workflow_ref"].(string), claims["iss"].(string))
	chain := []string{pemCert(leaf), pemCert(s.fulcioCert), pemCert(s.rootCert)}
	json.NewEncoder(w).Encode(map[string]any{"signedCertificateEmbeddedSct": map[string]any{"chain": map[string]any{"certificates": chain}}})
}

func (s *Sigstore) certify(pub crypto.PublicKey, san, issuer string) *x509.Certificate {
	u, _ := url.Parse(san)
	issuerV2, _ := asn1.MarshalWithParams(issuer, "utf8")
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		NotBefore:    time.Now().Add(-time.Minute), NotAfter: time.Now().Add(10 * time.Minute),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
		URIs: []*url.URL{u},
		ExtraExtensions: []pkix.Extension{
			{Id: oid(oidfIssuerOID), Value: []byte(issuer)},
			{Id: oid(oidcIssuerV2ID), Value: issuerV2},
		},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, s.fulcioCert, pub, s.fulcioKey)
	s.report(err)
	cert, err := x509.ParseCertificate(der)
	s.report(err)
	return cert
}

// serveRekor answers POST /api/v1/log/entries as Rekor v1: it canonicalizes
// the proposed entry (checking its signature), and returns the entry with a
// signed entry timestamp and an inclusion proof under a signed checkpoint.
func (s *Sigstore) serveRekor(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/api/v1/log/entries" {
		http.NotFound(w, r)
		return
	}
	pe, err := models.UnmarshalProposedEntry(r.Body, runtime.JSONConsumer())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	entry, err := types.CreateVersionedEntry(pe)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	body, err := types.CanonicalizeEntry(r.Context(), entry)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	uuid, anon := s.logEntry(body)
	w.Header().Set("ETag", uuid)
	w.Header().Set("Location", "/api/v1/log/entries/"+uuid)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(models.LogEntry{uuid: anon})
}

func (s *Sigstore) logEntry(body []byte) (string, models.LogEntryAnon) {
	s.mu.Lock()
	index := s.logIndex
	s.logIndex++
	s.mu.Unlock()
	pubDER, _ := x509.MarshalPKIXPublicKey(s.rekorKey.Public())
	logIDRaw := sha256.Sum256(pubDER)
	logID := hex.EncodeToString(logIDRaw[:])
	integrated := time.Now().Unix()
	encoded := base64.StdEncoding.EncodeToString(body)
	payload, _ := json.Marshal(tlog.RekorPayload{Body: encoded, IntegratedTime: integrated, LogIndex: index, LogID: logID})
	canonical, err := jsoncanonicalizer.Transform(payload)
	s.report(err)
	signer, err := signature.LoadECDSASignerVerifier(s.rekorKey, crypto.SHA256)
	s.report(err)
	set, err := signer.SignMessage(bytes.NewReader(canonical))
	s.report(err)
	// Each entry is the one leaf of its own tree: the root is its leaf hash.
	leaf := sha256.Sum256(append([]byte{0}, body...))
	checkpoint, err := rekorutil.CreateAndSignCheckpoint(context.Background(), rekorHost, rekorTreeID, 1, leaf[:], signer)
	s.report(err)
	rootHash := hex.EncodeToString(leaf[:])
	zero, one := int64(0), int64(1)
	cp := string(checkpoint)
	return hex.EncodeToString(leaf[:]), models.LogEntryAnon{
		Body: encoded, IntegratedTime: &integrated, LogID: &logID, LogIndex: &index,
		Verification: &models.LogEntryAnonVerification{
			SignedEntryTimestamp: strfmt.Base64(set),
			InclusionProof:       &models.InclusionProof{LogIndex: &zero, TreeSize: &one, RootHash: &rootHash, Hashes: []string{}, Checkpoint: &cp},
		},
	}
}

// serveTSA answers an RFC 3161 timestamp request.
func (s *Sigstore) serveTSA(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	req, err := timestamp.ParseRequest(raw)
	if err != nil || r.Header.Get("Content-Type") != "application/timestamp-query" {
		http.Error(w, "bad timestamp request", http.StatusBadRequest)
		return
	}
	ts := timestamp.Timestamp{
		HashAlgorithm: req.HashAlgorithm, HashedMessage: req.HashedMessage, Nonce: req.Nonce,
		Time: time.Now(), Policy: asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 57264, 2},
	}
	resp, err := ts.CreateResponseWithOpts(s.tsaLeaf, s.tsaKey, crypto.SHA256)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/timestamp-reply")
	w.Write(resp)
}

// TrustedRoot is the trusted_root.json a verifier of the stand-ins needs.
func (s *Sigstore) TrustedRoot() []byte {
	start, end := time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	pubDER, _ := x509.MarshalPKIXPublicKey(s.rekorKey.Public())
	logID := sha256.Sum256(pubDER)
	tr, err := root.NewTrustedRoot(root.TrustedRootMediaType01,
		[]root.CertificateAuthority{&root.FulcioCertificateAuthority{
			Root: s.rootCert, Intermediates: []*x509.Certificate{s.fulcioCert},
			ValidityPeriodStart: start, ValidityPeriodEnd: end, URI: s.Fulcio.URL,
		}},
		map[string]*root.TransparencyLog{},
		[]root.TimestampingAuthority{&root.SigstoreTimestampingAuthority{
			Root: s.rootCert, Intermediates: []*x509.Certificate{s.tsaInter}, Leaf: s.tsaLeaf,
			ValidityPeriodStart: start, ValidityPeriodEnd: end, URI: s.TSA.URL,
		}},
		map[string]*root.TransparencyLog{hex.EncodeToString(logID[:]): {
			BaseURL: "https://" + rekorHost, ID: logID[:], HashFunc: crypto.SHA256,
			PublicKey: s.rekorKey.Public(), SignatureHashFunc: crypto.SHA256,
			ValidityPeriodStart: start, ValidityPeriodEnd: end,
		}})
	s.report(err)
	b, err := tr.MarshalJSON()
	s.report(err)
	return b
}

func pemCert(c *x509.Certificate) string {
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw}))
}

func oid(s string) asn1.ObjectIdentifier {
	var out asn1.ObjectIdentifier
	for _, part := range strings.Split(s, ".") {
		var n int
		fmt.Sscan(part, &n)
		out = append(out, n)
	}
	return out
}

// report fails the test from a handler's goroutine, where t.Fatal may not
// be called.
func (s *Sigstore) report(err error) {
	if err != nil {
		s.t.Errorf("stand-in: %v", err)
	}
}
