package envpolicy

// DataOf is the data the library carries for a release, as JSON: the base
// release's file as it is, another release's rebuilt from its delta.
func DataOf(release string) ([]byte, error) {
	x, err := carried()
	if err != nil {
		return nil, err
	}
	return dataOf(x.base, release)
}
