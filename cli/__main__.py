"""`python -m autodiff.cli ...` behaves like `autodiff ...`."""

from autodiff.cli.main import main

main()
