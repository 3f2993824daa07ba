module duel-masters

go 1.22

require github.com/google/uuid v1.1.1

require (
	github.com/ventu-io/go-shortid v0.0.0-20171029131806-771a37caa5cf
	golang.org/x/sys v0.1.0 // indirect
)
