"""The saves folder: where it is (folder), one copy at a time (locks), files written whole
and never followed through links (atomic), what the files hold (documents), and the Saves
class that the game uses (store)."""
from ..model.checks import DamagedSave, is_valid_name
from ..model.scoring import is_possible_points
from .atomic import NotAFile
from .documents import AUTOSAVE_VERSION, DEFAULT_PREFS, DamagedFile, is_resume_point, parse_json, prefs_from_save
from .folder import ENV_CACHE, ENV_SAVES, Folders, choose_folders, move_earlier_saves
from .locks import FlockLock, MsvcrtLock, default_lock
from .records import RECORD_VERSION, InvalidRecord, check_player_record, check_record, is_valid_record
from .store import (
                        AUTOSAVE,
                        HISTORY,
                        LOCK,
                        MAX_HISTORY_BYTES,
                        MAX_STATE_BYTES,
                        NOTICES,
                        PREFS,
                        READ_ONLY,
                        Saves,
                        describe_os_error,
                        fit_notice,
                        local_now,
)

FILE_VERSION = RECORD_VERSION

__all__ = ["AUTOSAVE", "AUTOSAVE_VERSION", "DEFAULT_PREFS", "ENV_CACHE", "ENV_SAVES", "Folders", "FILE_VERSION",
           "HISTORY", "LOCK",
           "MAX_HISTORY_BYTES", "MAX_STATE_BYTES", "NOTICES", "PREFS", "READ_ONLY", "DamagedFile", "DamagedSave",
           "FlockLock", "InvalidRecord", "MsvcrtLock", "NotAFile", "Saves", "check_player_record", "check_record",
           "choose_folders", "default_lock", "describe_os_error", "fit_notice", "is_possible_points",
           "is_resume_point", "is_valid_name", "is_valid_record", "local_now", "move_earlier_saves", "parse_json",
           "prefs_from_save"]
