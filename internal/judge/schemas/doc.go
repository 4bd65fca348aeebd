// Package schemas compiles and applies the JSON Schemas messages carry (a
// tool's input and output schemas, an elicitation's requested schema) and walks
// the members of a message that the protocol itself defines.
package schemas
