import sys

from orvena_bench.cli.main import main

sys.exit(main())
