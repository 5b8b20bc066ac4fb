SELECT nope
