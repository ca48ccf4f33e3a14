from feltwatch.cli.main import main

raise SystemExit(main())
