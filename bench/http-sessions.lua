-- wrk script for bench/http.sh: POSTs to the URL's path, each request with the JSESSIONID cookie of
-- one of the sessions listed in the file named by SESSIONS_FILE (one id per line). Each wrk thread walks
-- the list round-robin from its own starting point, so the requests in flight (64 connections) are
-- spread over the 256 sessions and two of them meet on one session only now and then.
local threads = 0

function setup(thread)
  thread:set("thread_number", threads)
  threads = threads + 1
end

function init(args)
  ids = {}
  local file = assert(io.open(os.getenv("SESSIONS_FILE"), "r"), "SESSIONS_FILE not readable")
  for line in file:lines() do
    if #line > 0 then ids[#ids + 1] = line end
  end
  file:close()
  assert(#ids > 0, "no session ids in SESSIONS_FILE")
  cursor = thread_number * 128
end

function request()
  cursor = cursor + 1
  local id = ids[(cursor % #ids) + 1]
  return wrk.format("POST", nil, { ["Cookie"] = "JSESSIONID=" .. id, ["Content-Length"] = "0" }, nil)
end
