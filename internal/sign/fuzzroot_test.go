package sign

import "github.com/sigstore/sigstore-go/pkg/root"

var emptyRoot, _ = root.NewTrustedRoot(root.TrustedRootMediaType01, nil, map[string]*root.TransparencyLog{}, nil, map[string]*root.TransparencyLog{})
