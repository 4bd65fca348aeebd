package wireschema

import (
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// printer renders schema errors in English.
var printer = message.NewPrinter(language.English)
