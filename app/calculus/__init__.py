"""The calculus questions a student asks of a function, answered from autograd's numbers (SymPy where exact
forms help): critical points and extrema (in one and several variables, on rectangles, under constraints),
tangent lines and Taylor polynomials, limits, Newton's method, gradients and directional derivatives, related
rates, implicit curves, inverse functions, tables of values, and the numbers at points they share."""
