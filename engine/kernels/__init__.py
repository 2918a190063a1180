"""numpy kernels that compute as PyTorch's CPU kernels do: memory layout and broadcasting helpers, sums in
PyTorch's order, fused backward kernels, gathers and scatters, float arithmetic of its compiled loops, large
elementwise work split over the cores, and the allocator's settings."""
