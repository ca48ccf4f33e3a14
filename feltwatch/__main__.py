from feltwatch.cli import main

raise SystemExit(main())
