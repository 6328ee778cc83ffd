# A stable text form of `kseries review extract --json` for test_cmp.
(.messages[] | "message \(.kind) \(.message_id) from=\(.from_email) irt=\(.in_reply_to)"),
(.patches[] | "patch \(.kind) \(.message_id) v\(.version) \(.index)/\(.total) \(.files | join(","))"),
(.comments[] | "comment \(.reply_message_id) by=\(.author_email) on=\(.patch_message_id) \(.kind) \(.file):\(.side):\(.line)",
	(.text | split("\n")[] | "\t|\(.)")),
(.trailers[] | "trailer \(.kind): \(.person_name) <\(.person_email)> in=\(.given_in) scope=\(.scope) to=\(.applies_to | join(","))")
