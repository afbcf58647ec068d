-- Several games (--games; loaded after unique.lua when a scenario runs over more than one game).
--
-- Each game's request and scenario Lua run once, in a function of their own (add_game), where `vars`,
-- `wrk` and `request` are that function's locals: the game's variables, its method, path, headers and
-- body over wrk's own table (game_wrk), and its request function. So each game keeps its own state
-- (players, pools, chunk files, counters). request() below takes the games in turn, one request each, so
-- every game gets the same share of the load.

local games = {}

function game_wrk()
   local w = setmetatable({headers = {}}, {__index = wrk})
   w.format = function(method, path, headers, body)
      return wrk.format(method or w.method, path or w.path, headers or w.headers, body or w.body)
   end
   return w
end

-- A game's static request, formatted on first use: wrk sets the Host header in init, after this loads.
function static_request(w)
   local formatted = nil
   return function()
      if formatted == nil then
         formatted = w.format()
      end
      return formatted
   end
end

function add_game(make)
   table.insert(games, make())
end

local turn = 0
request = function()
   turn = turn % #games + 1
   return games[turn]()
end
