// Package sign signs a ledger head keylessly with Sigstore and verifies the
// signature: an in-toto statement whose subject is the head, in a DSSE
// envelope signed by an ephemeral key, certified by Fulcio for the signer's
// OIDC identity (on GitHub Actions, the workflow), logged in Rekor and
// timestamped, all in a Sigstore bundle (v0.3) that sigstore-go, cosign
// verify-blob-attestation and gh attestation verify can check.
//
// The statement (predicate type PredicateType) has two subjects:
//
//   - "mcpverdict-ledger-head": digest sha256 = the head's hex digits, the
//     head itself, which `mcpverdict ledger verify --bundle` checks;
//   - "ledger.head": digest sha256 = SHA-256 of the head file's bytes
//     ("sha256:…" and a newline), so that tools that hash a file (cosign,
//     gh) verify the head file as the blob.
//
// The predicate records the head again, with the ledger's file name, its
// block count and format, and the mcpverdict version that signed it.
package sign

// PredicateType names mcpverdict's ledger-head attestation.
const PredicateType = "https://github.com/mcpverdict/mcpverdict/attestations/ledger-head/v1"

// HeadSubject is the name of the subject whose digest is the head itself.
const HeadSubject = "mcpverdict-ledger-head"

// HeadFileSubject is the name of the subject whose digest is the head file's.
const HeadFileSubject = "ledger.head"
