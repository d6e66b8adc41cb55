"""Republic of Rome, the Early Republic: the second game on the project's engine principles.

`judges.rome.cards` loads and validates the scenario's cards and tables (data files under
`judges/rome/data/`), `judges.rome.engine` is the pure rules engine, `judges.rome.i18n` renders
its message keys in English, Spanish and Portuguese from its own catalogs
(`judges/rome/locale/*/LC_MESSAGES/rome.po`). Nothing here touches *Judges & Kings*' engine:
the two games share the dice interface and the typed errors (`judges.engine.dice`,
`judges.engine.errors`) and nothing else yet.
"""
