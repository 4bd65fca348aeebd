package judge

import "github.com/mcpverdict/mcpverdict/internal/rawjson"

// textOf is raw as Checked text when vouched and raw is JSON, as a
// message's parse leaves its params and result; else the zero Checked,
// which has the readers check raw themselves.
func textOf(raw []byte, vouched bool) rawjson.Checked {
	if !vouched {
		return rawjson.Checked{}
	}
	c, _ := rawjson.Check(raw)
	return c
}
