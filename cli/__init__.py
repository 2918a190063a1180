"""autodiff.cli: the `autodiff` command (options in, engine results out through the renderers)."""
