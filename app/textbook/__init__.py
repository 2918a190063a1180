"""A textbook's notation read into the language: answers such as `3x^2 cos x` (notation), questions such as
`d/dx x^3 at x=2` (questions), and x**(1/3) taken as the real root, as a textbook means it (realroots)."""
