package exampleserver

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	logoSize     = 16
	logoMIMEType = "image/png"
)

// logoPNG is a 16×16 two-colour PNG of a check mark. It is drawn in code
// rather than committed as a binary file; PNG encoding of the same image is
// byte-for-byte stable, so the blob is the same on every run.
var logoPNG = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, checkMark()); err != nil {
		panic("exampleserver: encoding the logo: " + err.Error())
	}
	return buf.Bytes()
})

// checkMark draws a green check mark on white: a short stroke down to the
// right, then a long stroke up to the right.
func checkMark() *image.Paletted {
	palette := color.Palette{color.White, color.RGBA{R: 0x1a, G: 0x7f, B: 0x37, A: 0xff}}
	img := image.NewPaletted(image.Rect(0, 0, logoSize, logoSize), palette)
	for x := 2; x <= 6; x++ { // short stroke: (2,8) to (6,12)
		img.SetColorIndex(x, x+6, 1)
		img.SetColorIndex(x, x+7, 1)
	}
	for x := 6; x <= 13; x++ { // long stroke: (6,12) to (13,5)
		img.SetColorIndex(x, 18-x, 1)
		img.SetColorIndex(x, 19-x, 1)
	}
	return img
}

// logoIcon is the logo as an icon for the server's identity, as a data: URI
// so that showing it needs no network.
func logoIcon() mcp.Icon {
	return mcp.Icon{
		Source:   "data:" + logoMIMEType + ";base64," + base64.StdEncoding.EncodeToString(logoPNG()),
		MIMEType: logoMIMEType,
		Sizes:    []string{"16x16"},
	}
}
