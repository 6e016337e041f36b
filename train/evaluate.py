"""``python -m train.evaluate``, kept for the repository's commands: the code lives in the
package (``inselflucht_env.cli.evaluate``, the console script ``inselflucht-evaluate``)."""

from inselflucht_env.cli.evaluate import main

if __name__ == "__main__":
    main()
