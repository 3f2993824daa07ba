"""games/duelmasters"""
