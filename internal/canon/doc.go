// Package canon reads JSON strictly and writes it in the canonical form whose
// SHA-256 is a contract fingerprint or a ledger block hash.
//
// The canonical form is the one mcp-evidence-validator hashes (Python's
// json.dumps with sort_keys, separators "," and ":", ensure_ascii off and
// allow_nan off), so that a fingerprint computed here equals one computed
// there byte for byte:
//
//   - object keys sorted by code point, no whitespace anywhere;
//   - strings as UTF-8, escaping only '"', '\\' and the control characters
//     below U+0020 (\n \r \t \b \f, the rest as \u00xx in lowercase hex), so
//     '<', '>', '&', U+007F and U+2028 are written as themselves;
//   - a number written without a fraction or exponent is an integer and is
//     kept exactly, whatever its size ("-0" is 0);
//   - any other number is an IEEE 754 double, written as Python's repr
//     writes it (1.0, 1e-05, 1e+16, 1.2345678901234568e+17); one too large
//     for a double is refused, as Python refuses infinity.
//
// Reading is stricter than Python's: a duplicated key, a lone surrogate
// escape, invalid UTF-8, NaN or Infinity, and trailing data are errors that
// name their JSON path, because each is a way two readers could disagree on
// what a hashed document says.
package canon
