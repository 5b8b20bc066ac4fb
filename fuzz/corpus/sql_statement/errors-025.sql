SELECT abs('x')
