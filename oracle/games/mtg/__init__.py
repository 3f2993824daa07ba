"""games/mtg"""
