USE nope
