// Package sandbox runs a probed server in a fresh network namespace of its
// own, where every connection attempt (a DNS lookup, a TCP connect, a UDP
// datagram) is caught by a local sink and written to a log: the evidence the
// probe holds openWorldHint to. It needs Linux user and network namespaces.
package sandbox
