"""`python -m autodiff.cli ...` behaves like `autodiff ...`."""

from autodiff.cli.main import main

if __name__ == "__main__":  # not when a --jobs worker (multiprocessing's spawn) imports it as __mp_main__
    main()
