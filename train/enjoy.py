"""``python -m train.enjoy``, kept for the repository's commands: the code lives in the package
(``inselflucht_env.cli.enjoy``, installed as the console script ``inselflucht-enjoy``)."""

from inselflucht_env.cli.enjoy import main

if __name__ == "__main__":
    main()
