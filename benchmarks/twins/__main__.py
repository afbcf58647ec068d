import sys

from benchmarks.twins.app import main

sys.exit(main())
