from night_services import processes

__all__ = ["processes"]
